// `npm run start:cluster`: the production topology on this machine (docs/deploy.md). nginx on
// http://localhost:8080 serves the shell's files and each remote's build from disk and proxies
// everything else — pages, and the published releases on :8090 — to NETNET_INSTANCES shell
// instances (2 by default) on their own loopback ports, beside the store, the catalogue, two
// control-plane API replicas (:8070 and the port after it) and the Auth emulator that `npm start`
// runs too. Each instance and replica has a working folder of its own (./workingFolders.mjs):
// nothing but the store is shared between them. nginx is installed with apt-get the first time.
//
//   kill -HUP <pid>    rolling restart of every instance (each drains while its successor warms)
//   Ctrl-C             stops everything it started
//
// Who runs where is written to .cluster/state.json (pids, ports, states) for the tests and benchmarks.
// Everything it reads from its environment is CLUSTER_VARIABLES (../config.ts), read once, here.
import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readConfigOrExit } from '@netnet/server-kit';
import site from '@netnet/site';
import { CLUSTER_VARIABLES } from '../config.ts';
import { atStop, buildIfNeeded, catalogueProgram, openSiteStore, startAuthEmulator, startControlApi, startGuardProcess, startProcess, stopAll, waitFor } from '../processes.mjs';
import { clusterDir, prepareNginx } from './frontDoor.mjs';
import { ensureNginx, NGINX } from './install.mjs';
import { superviseInstances } from './instances.mjs';
import { storeLogin } from './storeLogins.mjs';
import { freshWorkingFolders } from './workingFolders.mjs';

const config = readConfigOrExit('npm run start:cluster', CLUSTER_VARIABLES, process.env);

/** The instances' ports: NETNET_INSTANCE_PORT (default 8081) and the ones after it. */
function instancePorts({ instances, instancePort }) {
  if (instancePort + instances > 65536) throw new Error(`NETNET_INSTANCE_PORT=${instancePort} leaves no room for ${instances} instances (NETNET_INSTANCES) below port 65536`);
  return Array.from({ length: instances }, (_, index) => instancePort + index);
}

/**
 * nginx's per-client page limits, raised for a load generator whose connections all come from one
 * address but stand for many members (bench:cluster): NETNET_NGINX_PAGES_PER_CLIENT (renders at
 * once) and NETNET_NGINX_PAGES_PER_SECOND (pages and ticketed maps a second).
 */
const limitsFrom = ({ pagesPerClient, pagesPerSecond }) => ({
  ...(pagesPerClient !== undefined && { pagesPerClient }),
  ...(pagesPerSecond !== undefined && { ticketsPerSecond: pagesPerSecond }),
});

const stateFile = join(clusterDir, 'state.json');

/** The control-plane API replicas: on NETNET_CONTROL_PORT and the port after it, a working folder each. */
const API_REPLICAS = 2;
const replicaName = (index) => `api-${index + 1}`;
const instanceName = (index) => `shell-${index + 1}`;

async function main() {
  const started = Date.now();
  const ports = instancePorts(config);
  // Every instance signs and checks release-health tickets with one secret; made up for this run
  // unless the operator gives one (docs/deploy.md).
  const ticketSecret = config.ticketSecret ?? randomBytes(32).toString('base64url');
  // What nginx's requests to the instances carry, so they trust nginx's X-Real-IP and not any
  // other local process's (docs/deploy.md, "Limits").
  const frontDoorSecret = randomBytes(32).toString('base64url');
  console.log(`[cluster] ${ensureNginx()}`);
  await buildIfNeeded();

  // The store before the instances, so they find it up and migrated (site/start.mjs does the same).
  const embedded = await openSiteStore(config);
  if (config.controlPort + API_REPLICAS - 1 > 65535) throw new Error(`NETNET_CONTROL_PORT=${config.controlPort} leaves no room for ${API_REPLICAS} API replicas below port 65536`);
  const replicas = Array.from({ length: API_REPLICAS }, (_, index) => ({ name: replicaName(index), port: config.controlPort + index }));
  const folders = freshWorkingFolders([...replicas.map(({ name }) => name), ...ports.map((_, index) => instanceName(index))]);

  startProcess('catalogue', process.execPath, [catalogueProgram()], { PORT: String(site.ports.catalogue) });
  // The control-plane API, on ports of its own beside the front door: teams' pipelines call it,
  // members never do. Two replicas on one store: a release published through either is the
  // other's too, and every instance's.
  const controlApis = Promise.all(
    replicas.map(({ name, port }) => startControlApi(config, { name, port, env: { NETNET_DEPLOY_DIR: folders[name], ...storeLogin(embedded, 'api') } })),
  );
  // Awaited once the rest is up; until then a failure must not count as unhandled.
  controlApis.catch(() => {});
  const usesEmulator = site.runtimeConfig(config).authEmulatorUrl !== null;
  if (usesEmulator) startAuthEmulator();
  // One guard for the environment, beside the instances rather than in each: an instance that
  // crashes or is restarted takes no judgement with it.
  const guardPid = startGuardProcess(config)?.pid ?? null;

  let nginxPid = null;
  // Written beside and renamed over, so a reader never finds it half written.
  const writeState = () => {
    const apis = replicas.map(({ name, port }) => ({ name, url: `http://127.0.0.1:${port}` }));
    writeFileSync(`${stateFile}.next`, `${JSON.stringify({ pid: process.pid, nginx: nginxPid, guard: guardPid, apis, workingFolders: folders, ...instances.snapshot() }, null, 2)}\n`);
    renameSync(`${stateFile}.next`, stateFile);
  };
  const instances = superviseInstances({
    ports,
    // nginx 1.22 cannot relay a 103: the hints go on the page's response; and the client of a
    // request is the one nginx names (docs/deploy.md, "Limits"). Its own working folder, and the
    // store's socket when the store is the embedded one (not in that folder).
    env: (index) => ({
      NETNET_DEPLOY_DIR: folders[instanceName(index)],
      ...storeLogin(embedded, 'instance'),
      NETNET_EARLY_HINTS: 'link',
      NETNET_TRUSTED_PROXIES: '127.0.0.1',
      NETNET_TRUSTED_PROXY_SECRET: frontDoorSecret,
      NETNET_TICKET_SECRET: ticketSecret,
    }),
    onChange: () => writeState(),
  });
  atStop(() => instances.stop());
  // nginx first: it also serves the remotes' builds, which the instances load the server builds of
  // while they warm up (a release's they read from the store). Pages answer once an instance is ready.
  const { args, configFile } = prepareNginx({
    instancePorts: ports,
    workers: config.nginxWorkers,
    limits: limitsFrom(config),
    frontDoorSecret,
    host: config.host,
    siteSettings: config,
  });
  nginxPid = startProcess('nginx', NGINX, args).pid;
  await waitFor(`http://localhost:${site.ports[site.remotes[0]]}/mf-manifest.json`, 'nginx', 10_000);
  await waitFor(`http://localhost:${site.ports.catalogue}/3/genre/movie/list`, 'The catalogue service');
  // The instances last, so a page answering through the front door means the whole site does.
  if (usesEmulator) await waitFor(`http://127.0.0.1:${site.ports.authEmulator}/`, 'The Firebase Auth emulator', 90_000);
  await instances.start();
  await waitFor(`http://localhost:${site.ports.shell}/config.json`, 'The front door');

  process.on('SIGHUP', () => {
    instances.rollingRestart().catch((error) => console.error(`[cluster] rolling restart failed: ${error.message}`));
  });
  const apiUrls = await controlApis;
  const apiUrl = apiUrls[0];
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`[cluster] control-plane API replicas on ${apiUrls.join(' and ')} (docs/pipelines.md)`);
  console.log(`[cluster] release console on ${apiUrl}/console/ (docs/releases.md)`);
  console.log(`[cluster] nginx (${configFile}) in front of ${ports.length} shell instance(s) on ${ports.map((port) => `127.0.0.1:${port}`).join(', ')}`);
  console.log(`Netnet is ready on http://localhost:${site.ports.shell} (started in ${seconds} s; rolling restart: kill -HUP ${process.pid})`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  stopAll(1);
});
