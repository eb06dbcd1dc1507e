// `npm run dev`: the five webpack dev servers with live reload, plus the catalogue service and
// the Firebase Auth emulator. The shell is on :8080 as in production.
import { join } from 'node:path';
import site from '@netnet/site';
import { buildIfNeeded, root } from './build.mjs';
import { startAuthEmulator, startProcess, stopAll, waitFor } from '../site/processes.mjs';

async function main() {
  await buildIfNeeded({ only: ['catalogue'] });
  startProcess('catalogue', process.execPath, [join(root, 'catalogue/dist/main.js')], {
    PORT: String(site.ports.catalogue),
  });
  if (site.runtimeConfig(site.readSite()).authEmulatorUrl !== null) startAuthEmulator();
  for (const app of ['shell', ...site.remotes]) {
    startProcess(app, 'npm', ['run', 'dev', '--silent', '-w', app]);
  }
  await waitFor(`http://localhost:${site.ports.shell}/config.json`, 'The shell dev server', 180_000);
  console.log(`Netnet (dev) is ready on http://localhost:${site.ports.shell}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  stopAll(1);
});
