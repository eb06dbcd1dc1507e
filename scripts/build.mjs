// Builds what is out of date: each app whose sources (or the shared toolchain) changed since its
// last build. `node scripts/build.mjs --all` rebuilds everything.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const site = createRequire(import.meta.url)('@netnet/site');
const STAMP = '.built';

// What every build reads besides the app's own files: the installed toolchain (lockfile), the
// compiler settings and the site table (ports, federation names).
const TOOLCHAIN = ['package-lock.json', 'tsconfig.json', 'site/table.cjs'];
// What every webpack build reads besides: the shared contract, the one webpack config and its
// plugins, Babel and the browser targets.
const WEB_TOOLCHAIN = ['shared/src', 'shared/package.json', 'webpack.shared.js', 'scripts/webpack', 'babel.config.js', '.browserslistrc'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    // Tests and the test kit (shared/src/testing) never reach a bundle.
    if (['node_modules', 'dist', 'testing'].includes(entry) || /\.test\.tsx?$/.test(entry)) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** The files and folders (relative to the repository) whose change makes `app`'s build stale. */
function inputsOf(app) {
  const own = ['src', 'package.json', 'tsconfig.json'].map((file) => `${app}/${file}`);
  // The catalogue bundles one file of the contract (the id rule) and the server kit with the repository's Babel config.
  if (site.apps[app].kind === 'service') return [...own, ...TOOLCHAIN, `${app}/media`, `${app}/webpack.config.js`, 'babel.config.js', 'shared/src/ids.ts', 'server-kit/src'];
  // The shell's build holds its server program too (shell/server/bundle.mjs), with what it bundles,
  // and its page server bundles the render sandbox (the pool its render processes run in).
  const server = app === 'shell' ? ['shell/server', 'server-kit/src', 'rollout/src', 'control-plane/src', 'render-sandbox/src', 'server-kit/bundle.mjs'] : [];
  return [...own, ...TOOLCHAIN, ...WEB_TOOLCHAIN, ...server, `${app}/webpack.config.js`];
}

/** True when `app` has no build yet, or one of its inputs changed after its last build. */
export function isStale(app, base = root) {
  const stamp = join(base, app, 'dist', STAMP);
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return inputsOf(app).some((input) => newest(join(base, input)) > built);
}

function run(app) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('npm', ['run', 'build', '--silent', '-w', app], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`build of ${app} failed (exit ${code})`));
      writeFileSync(join(root, app, 'dist', STAMP), new Date().toISOString());
      console.log(`built ${app} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      resolve();
    });
  });
}

/** Builds the stale apps, two at a time (one per core). */
export async function buildIfNeeded({ all = false, only = site.builtApps } = {}) {
  const queue = only.filter((app) => all || isStale(app));
  const workers = Array.from({ length: 2 }, async () => {
    for (let app = queue.shift(); app; app = queue.shift()) await run(app);
  });
  await Promise.all(workers);
  // The control plane's commands run from bundles too (control-plane/bin/run.mjs builds a stale one
  // on its first run); an image runs them from a read-only file system, so a full build makes them.
  if (all) await (await import('@netnet/control-plane/commands')).buildCommands();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildIfNeeded({ all: process.argv.includes('--all') }).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
