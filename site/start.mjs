// `npm start`: builds what is out of date, then runs the whole site on localhost —
// the catalogue service, the Firebase Auth emulator, each remote on its own origin, the published
// releases (deploy/) on :8090, the store (DATABASE_URL, else an embedded PostgreSQL in
// deploy/.database/), the control-plane API on :8070 and the shell on :8080 — and prints one line
// when it is ready.
// Ctrl-C stops everything it started. It reads its environment once, before anything starts: its
// own variables (./config.ts) and, for the shell it hosts, the shell's; each process it starts
// reads its own.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isReleaseFile } from '@netnet/control-plane/releases';
import { readConfigOrExit } from '@netnet/server-kit';
import site from '@netnet/site';
import { SHELL_VARIABLES } from 'shell/server/config.ts';
import { serveApp } from 'shell/server/httpServer.ts';
import { serveShell } from 'shell/server/shellServer.ts';
import { START_VARIABLES } from './config.ts';
import { buildIfNeeded, catalogueProgram, keepServer, openSiteStore, root, startAuthEmulator, startControlApi, startGuardProcess, startProcess, stopAll, waitFor } from './processes.mjs';

const config = readConfigOrExit('npm start', START_VARIABLES, process.env);
const shellConfig = readConfigOrExit('npm start (its shell)', SHELL_VARIABLES, process.env);

async function main() {
  const started = Date.now();
  await buildIfNeeded();

  const { ports } = site;
  await openSiteStore(config);
  startProcess('catalogue', process.execPath, [catalogueProgram()], { PORT: String(ports.catalogue) });
  const usesEmulator = site.runtimeConfig(config).authEmulatorUrl !== null;
  if (usesEmulator) startAuthEmulator();

  for (const app of site.remotes) {
    keepServer(await serveApp({ dir: join(root, app, 'dist'), port: ports[app], cors: true, config: shellConfig }));
  }
  // Published releases, like a CDN: read live, since releases appear while the site runs.
  mkdirSync(config.deployDir, { recursive: true });
  // originFolder.ts still takes an environment, of which it reads NETNET_DEPLOY_DIR alone.
  const origin = { NETNET_DEPLOY_DIR: config.deployDir };
  keepServer(await serveApp({ dir: config.deployDir, port: ports.deploy, cors: true, only: (path) => isReleaseFile(path, origin), config: shellConfig }));
  const controlApi = startControlApi(config);
  // Awaited once the rest is up; until then a failure must not count as unhandled.
  controlApi.catch(() => {});
  // The guard rolls back a canary doing worse than its stable, from the reports the shell stores.
  startGuardProcess(config);
  await waitFor(`http://localhost:${ports.catalogue}/3/genre/movie/list`, 'The catalogue service');
  if (usesEmulator) await waitFor(`http://127.0.0.1:${ports.authEmulator}/`, 'The Firebase Auth emulator', 90_000);

  // The shell opens last, so "ready" means the whole site answers. It renders every page on its
  // server (docs/architecture.md#server-rendering); NETNET_SSR=off serves the shell's index.html
  // alone, the browser rendering everything (the benchmark's baseline). It collects the browsers'
  // release-health reports for the guard.
  const shell = await serveShell({ port: ports.shell, config: shellConfig });
  keepServer(shell);
  const apiUrl = await controlApi;
  // Releases' server code runs only in the render sandbox (docs/sandbox.md); without bubblewrap their areas render in the browser.
  const releaseCode = shell.releaseCode.runs === 'sandboxed' ? "releases' server code sandboxed (bubblewrap)" : `releases' server code NOT run, areas render in the browser only: ${shell.releaseCode.why}`;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`control-plane API on ${apiUrl} (tokens: npm run tokens; without NETNET_CONTROL_URL the release and rollout commands use the store directly)`);
  console.log(`Netnet is ready on http://localhost:${ports.shell} (started in ${seconds} s) · ${releaseCode} · release console on ${apiUrl}/console/ (sign-in links: npm run tokens -- create <name> … --person)`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  stopAll(1);
});
