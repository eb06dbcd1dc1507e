// Builds the shell's server program (./main.ts and everything it imports of our workspaces) into
// one CommonJS file, dist/server/main.cjs, that Node runs as it is: no TypeScript loader in
// production. Packages from npm stay outside the bundle, required from node_modules at run time,
// and so does the site table (@netnet/site): plain CommonJS that finds the checkout's folders from
// its own __dirname, which a bundle would make the bundle's.
//
// Our modules find files beside their own source (the migrations, the site table, the shell's
// build) from import.meta.url; each keeps the URL of its own source file, so those paths hold in
// the bundle (it runs from the checkout it was built in, as `npm start` and the cluster run it).
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const shell = fileURLToPath(new URL('..', import.meta.url));

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

await build({
  entryPoints: [fileURLToPath(new URL('./main.ts', import.meta.url))],
  outfile: `${shell}dist/server/main.cjs`,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [ownSourceUrl],
});
