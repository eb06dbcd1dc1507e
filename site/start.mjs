// `npm start`: builds what is out of date, then runs the whole site on localhost —
// the catalogue service, the Firebase Auth emulator, each remote on its own origin, the store
// (DATABASE_URL, else an embedded PostgreSQL in deploy/.database/), the control-plane API on
// :8070, the shell on :8080 and the published releases on :8090 (from the store, by the shell,
// whose working copy is deploy/) — and prints one line when it is ready.
// Ctrl-C stops everything it started. It reads its environment once, before anything starts: its
// own variables (./config.ts) and, for the shell it hosts, the shell's; each process it starts
// reads its own.
import { join } from 'node:path';
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
  // Its releases origin (:8090) answers published releases from the store, like a CDN.
  const shell = await serveShell({ port: ports.shell, releasesPort: ports.deploy, config: shellConfig });
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
