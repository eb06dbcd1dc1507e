// How our Node programs are built to run without a TypeScript loader: the shell's server
// (shell/server/bundle.mjs) and the control plane's commands (control-plane/bin/run.mjs). Each is
// one file holding its entry and everything it imports of our workspaces; packages from npm stay
// outside, required from node_modules at run time, and so does the site table (@netnet/site):
// plain CommonJS that finds the checkout's folders from its own __dirname, which a bundle would
// make the bundle's.
//
// Our modules find files beside their own source (the migrations, the OpenAPI description, the
// shell's and the console's builds) from import.meta.url; each keeps the URL of its own source
// file, so those paths hold in the bundle (it runs from the checkout it was built in).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ownSourceUrl = {
  name: 'own-source-url',
  setup(bundle) {
    bundle.onResolve({ filter: /^[^./]/ }, ({ path }) => (path.startsWith('@netnet/') && path !== '@netnet/site' ? undefined : { external: true }));
    bundle.onLoad({ filter: /\.(ts|mjs|js)$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined;
      const source = await readFile(path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)), loader: path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

/**
 * Bundles `entry` into `outfile` (`format`: 'cjs' or 'esm'), with a source map beside it.
 * @returns {Promise<string[]>} the absolute paths of our source files it was built from
 */
export async function bundleProgram({ entry, outfile, format }) {
  const { metafile } = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format,
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [ownSourceUrl],
    absWorkingDir: process.cwd(),
  });
  return Object.keys(metafile.inputs).map((input) => resolve(process.cwd(), input));
}
