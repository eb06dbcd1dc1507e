// Builds what is out of date: each app whose sources (or the shared toolchain) changed since its
// last build. `node scripts/build.mjs --all` rebuilds everything.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const webApps = ['shell', 'remote-auth', 'remote-browse', 'remote-title', 'remote-search'];
const STAMP = '.built';

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

function inputsOf(app) {
  const own = [join(root, app, 'src'), join(root, app, 'package.json')];
  if (app === 'catalogue') return [...own, join(root, app, 'media'), join(root, app, 'tsconfig.build.json')];
  return [...own, join(root, app, 'webpack.config.js'), join(root, 'shared/src'), join(root, 'webpack.shared.js'), join(root, 'babel.config.js')];
}

export function isStale(app) {
  const stamp = join(root, app, 'dist', STAMP);
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return inputsOf(app).some((input) => newest(input) > built);
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
export async function buildIfNeeded({ all = false, only = ['catalogue', ...webApps] } = {}) {
  const queue = only.filter((app) => all || isStale(app));
  const workers = Array.from({ length: 2 }, async () => {
    for (let app = queue.shift(); app; app = queue.shift()) await run(app);
  });
  await Promise.all(workers);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildIfNeeded({ all: process.argv.includes('--all') }).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
