// Child processes of `npm start`, `npm run start:cluster` and `npm run dev`: prefixed output,
// readiness checks, and one Ctrl-C that stops them all.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { hostname, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@netnet/control-plane/store';
import { registerPublished } from '@netnet/control-plane/releases';
import site from '@netnet/site';

/** The checkout the site runs from: every app's build is served from its folder in it. */
export const root = fileURLToPath(new URL('..', import.meta.url));

// The programs started here are found through their packages, not by a path into the checkout.
const require = createRequire(import.meta.url);
const packageDir = (name) => dirname(require.resolve(`${name}/package.json`));

/** The catalogue service as built (catalogue/webpack.config.js). */
export const catalogueProgram = () => join(packageDir('@netnet/catalogue'), 'dist', 'main.js');

/**
 * Builds the apps that are out of date (scripts/build.mjs, the repository's build tool), in a
 * process of its own as `npm run build` runs it; rejects when a build fails.
 */
export function buildIfNeeded() {
  return new Promise((resolve, reject) => {
    const build = spawn(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
    build.on('error', reject);
    build.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`the build failed (${signal ?? `exit ${code}`})`))));
  });
}

const children = [];
const servers = [];
let stopping = false;

export function startProcess(name, command, args, env = {}) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const print = (chunk) =>
    chunk.toString().split('\n').filter(Boolean).forEach((line) => console.log(`[${name}] ${line}`));
  child.stdout.on('data', print);
  child.stderr.on('data', print);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[${name}] stopped unexpectedly (${signal ?? `exit ${code}`})`);
      stopAll(1);
    }
  });
  children.push(child);
  return child;
}

/** The Firebase Auth emulator (docs/architecture.md#auth), unless real Firebase settings are in the environment. */
export function startAuthEmulator() {
  return startProcess('auth', join(root, 'node_modules/.bin/firebase'), [
    'emulators:start', '--only', 'auth', '--project', 'demo-netnet',
  ]);
}

const lastTasks = [];

/** Work to finish after the servers and children are told to stop (the embedded database's shutdown). */
export function atStop(task) {
  lastTasks.push(task);
}

/**
 * The store the site shares (docs/store.md), opened before anything that needs
 * it, and migrated: a database that cannot be had stops the start with its reason. An embedded
 * database is stopped when everything stops, only by whoever started it. Releases published into
 * the deploy folder before the store knew them (an older checkout) are registered, as the CLI's
 * role would (docs/deploy.md, "Roles"); each server then opens the store as its own role.
 * `config`: the start program's (./config.ts). Resolves with where the embedded server listens
 * (its socket's folder, port and database), or null when the store is DATABASE_URL's.
 */
export async function openSiteStore(config) {
  const database = await openDatabase({ store: config, role: 'cli', max: 1, actor: `${userInfo().username}@${hostname()}` });
  if (database.embedded?.startedHere) atStop(() => database.embedded.stop());
  try {
    const imported = await registerPublished(database.pool, site.remotes, config.deployDir);
    if (imported) console.log(`[store] registered ${imported} release(s) found in ${config.deployDir}`);
  } finally {
    await database.close();
  }
  const where = database.embedded?.config;
  return where ? { host: where.host, port: where.port, database: where.database } : null;
}

/**
 * The control-plane API (control-plane/bin/api.ts) as a process of its own beside the site, on the
 * store openSiteStore() opened; resolves with its URL once it answers. Every call to it needs a
 * token (npm run tokens -- create; docs/pipelines.md). `name`, `port` and `env` (laid over this
 * process's environment): a replica's, when the cluster runs more than one.
 */
export async function startControlApi(config, { name = 'api', port = config.controlPort, env = {} } = {}) {
  startProcess(name, process.execPath, [join(packageDir('@netnet/control-plane'), 'bin', 'run.mjs'), 'api'], { ...env, NETNET_CONTROL_PORT: String(port) });
  // Its description is the one answer without a token.
  await waitFor(`http://127.0.0.1:${port}/openapi.yaml`, 'The control-plane API');
  return `http://127.0.0.1:${port}`;
}

/**
 * The release guard of the site's environment (control-plane/src/guard/) as a process of its own:
 * one per environment, however many shell instances serve it, judging the reports they all stored
 * and acting while it holds the environment's lease. NETNET_GUARD=off: none (a deployment job runs
 * `npm run rollout -- guard` elsewhere). Returns its child process, or null.
 */
export function startGuardProcess(config) {
  if (config.guard === 'off') return null;
  return startProcess('guard', process.execPath, [join(packageDir('@netnet/control-plane'), 'bin', 'run.mjs'), 'rollout', 'guard']);
}

export function keepServer(server) {
  servers.push(server);
  return server;
}

export async function waitFor(url, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s (${url})`);
}

export function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const server of servers) server.close();
  for (const child of children) child.kill('SIGINT');
  const exit = setTimeout(() => process.exit(code), 5000);
  exit.unref();
  void Promise.allSettled(lastTasks.map((task) => task())).then(() => setTimeout(() => process.exit(code), 1500).unref());
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
