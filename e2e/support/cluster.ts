import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from './test';
import { clusterEnvironment } from './clusterEnvironment';
import { forgetReleases, readMap, restoreMap } from './controlPlane';
import { copyBuildAs } from './buildCopy.mjs';
import { getFrom } from './loopbackClients.mjs';
import { siteUrl } from './site';
import site from '@netnet/site';

// The cluster `npm run e2e:cluster` runs (`npm run start:cluster`, docs/deploy.md) as its specs see
// it: who runs where (.cluster/state.json), each instance straight on its own port beside the
// front door, the release owner's commands in the environment it serves, and releases published
// for a spec and removed after it.

const root = resolve(__dirname, '../..');
const execute = promisify(execFile);

export interface ClusterState {
  pid: number;
  nginx: number;
  /** The guard process's pid (null: NETNET_GUARD=off). */
  guard: number | null;
  /** The control-plane API replicas, each on its own port. */
  apis: { name: string; url: string }[];
  /** Each instance's and replica's working folder, by its name (shell-1, api-1, …). */
  workingFolders: Record<string, string>;
  rolling: boolean;
  rollingRestarts: number;
  instances: { name: string; port: number; pid: number | null; state: string }[];
}

const stateFile = join(root, '.cluster', 'state.json');
export const clusterState = (): ClusterState => JSON.parse(readFileSync(stateFile, 'utf8')) as ClusterState;

/** Until every instance is ready (the supervisor replaces one that died). */
export async function allReady(): Promise<ClusterState> {
  await expect.poll(() => clusterState().instances.every((instance) => instance.state === 'ready' && instance.pid !== null), { timeout: 60_000 }).toBe(true);
  return clusterState();
}

/** Each instance straight on its own port, as an operator's scraper or a probe reaches it (not through nginx). */
export const instanceOrigins = (): string[] => clusterState().instances.map((instance) => `http://127.0.0.1:${instance.port}`);

/**
 * GETs of `path` at `rate` a second from 40 clients, each sent on time, for `seconds` and for as
 * long after as `during()` still runs (a slow machine's restart stays under load to its end).
 */
export async function underLoad(path: string, rate: number, seconds: number, during: () => Promise<void>) {
  const failures: string[] = [];
  const sent: Promise<void>[] = [];
  const started = Date.now();
  let done = false;
  const load = (async () => {
    for (let i = 0; i < rate * seconds || !done; i += 1) {
      const wait = started + (i * 1000) / rate - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sent.push(
        getFrom(siteUrl, path, { client: i % 40, headers: { Cookie: `netnet-device=cluster-spec-${i % 40}` } }).then(
          ({ status }) => void (status !== 200 && failures.push(`${path}: ${status}`)),
          (error: Error) => void failures.push(`${path}: ${error.message}`),
        ),
      );
    }
  })();
  try {
    await during();
  } finally {
    done = true;
  }
  await load;
  await Promise.all(sent);
  return { sent: sent.length, failures };
}

/** `npm run rollout -- …` or `npm run release -- …` as a release owner types it, in the cluster's environment. */
export async function npmRun(script: 'rollout' | 'release' | 'tokens', ...args: string[]): Promise<string> {
  const { stdout } = await execute('npm', ['run', '--silent', script, '--', ...args], {
    cwd: root,
    env: { ...process.env, NETNET_ENV: clusterEnvironment },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

export interface RemoteRelease {
  version: string;
  entry: string;
}
export interface RemoteMap {
  environment: string;
  remotes: Record<string, { stable: RemoteRelease; canary?: RemoteRelease & { percent: number }; pinnable: RemoteRelease[] }>;
}

/** What `origin` answers at /remotes.json, as a browser asks for it (never from a cache). */
export async function remotesJsonOf(origin: string): Promise<RemoteMap> {
  const response = await fetch(`${origin}/remotes.json`, { headers: { 'Cache-Control': 'no-cache' } });
  expect(response.status, `${origin}/remotes.json`).toBe(200);
  // The map alone: the release-health ticket beside it is this request's own.
  const { ticket: _ticket, ...map } = (await response.json()) as RemoteMap & { ticket?: string };
  return map;
}

/** The remote map a page rendered by `origin` was given (its netnet-state), as the browser hydrates it. */
export async function pageMapOf(origin: string, path = '/'): Promise<RemoteMap> {
  const response = await fetch(`${origin}${path}`);
  expect(response.status, `${origin}${path}`).toBe(200);
  const state = /<script[^>]*id="netnet-state"[^>]*>([\s\S]*?)<\/script>/.exec(await response.text())?.[1];
  if (!state) throw new Error(`${origin}${path} came without its netnet-state: not rendered by the server`);
  return (JSON.parse(state) as { map: RemoteMap }).map;
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** An instance's /metrics (Prometheus' text format), straight from its port. */
export async function metricsOf(origin: string): Promise<Sample[]> {
  const response = await fetch(`${origin}/metrics`);
  expect(response.status, `${origin}/metrics`).toBe(200);
  const samples: Sample[] = [];
  for (const line of (await response.text()).split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key!, value!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of a metric's samples whose labels include `labels`. */
export const sumOf = (samples: Sample[], name: string, labels: Record<string, string> = {}): number =>
  samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);

/**
 * Waits until an instance's render processes for `version` of `remote` take renders (they start
 * when the instance sees the map name the release; until they are ready its areas fall back
 * without counting against it).
 */
export async function untilRenderProcessesReady(origin: string, remote: string, version: string, timeout = 60_000): Promise<void> {
  await expect
    .poll(
      async () => sumOf(await metricsOf(origin), 'netnet_render_processes', { remote, release: version }),
      { message: `${remote} ${version}'s render processes on ${origin}`, timeout, intervals: [250, 500, 1_000] },
    )
    .toBeGreaterThan(0);
}

/**
 * POSTs one release-health batch of `reports` straight to an instance, as a running page would:
 * with the ticket that instance gave it for its device cookie (a new page load each time); its status.
 */
export async function postReports(origin: string, reports: object[]): Promise<number> {
  const asked = await fetch(`${origin}/health/ticket`, { method: 'POST', headers: { Cookie: `netnet-device=cluster-spec-${randomUUID()}` } });
  const { ticket } = asked.status === 200 ? ((await asked.json()) as { ticket?: string }) : {};
  const response = await fetch(`${origin}/health/reports`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ticket, reports }),
  });
  return response.status;
}

/**
 * Publishes copies of a remote's production build (no build here) under test versions, with `npm
 * run release -- <remote> --version <v> --from <copy>`; `without` leaves the files of one exposed
 * module out of a copy (its page chunk missing, as a broken release would be). Returns the undo:
 * the releases' files and their registration gone, the deploy tree as found.
 */
export async function publishCopies(remote: string, releases: { version: string; without?: string }[]): Promise<() => Promise<void>> {
  const staging = mkdtempSync(join(tmpdir(), 'netnet-cluster-'));
  const deployDir = site.readSite().deployDir;
  const remove = async () => {
    for (const { version } of releases) rmSync(join(deployDir, remote, version), { recursive: true, force: true });
    await forgetReleases(remote, releases.map(({ version }) => version));
    rmSync(staging, { recursive: true, force: true });
    const folder = join(deployDir, remote);
    if (existsSync(folder) && readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
  };
  try {
    for (const { version, without } of releases) {
      const copy = join(staging, version);
      copyBuildAs({ root, remote, version, copy, without });
      await npmRun('release', remote, '--version', version, '--from', copy);
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return remove;
}

/** What the cluster serves before a spec changes it: the stored map, and /remotes.json as the instances answer it. */
export async function servedNow(): Promise<{ map: unknown; served: RemoteMap }> {
  const [first, ...others] = await Promise.all(instanceOrigins().map(remotesJsonOf));
  for (const other of others) expect(other, 'every instance serves the same map').toEqual(first);
  return { map: await readMap(clusterEnvironment), served: first! };
}

/** What members get of a served map: each remote's stable and canary (the versions QA may pin change with every release published). */
const membersGet = (served: RemoteMap) =>
  Object.fromEntries(Object.entries(served.remotes).map(([remote, rollout]) => [remote, rollout && { stable: rollout.stable, canary: rollout.canary ?? null }]));

/** Puts the map back as servedNow() found it, and waits until every instance serves members what it served them then. */
export async function putBack({ map, served }: { map: unknown; served: RemoteMap }): Promise<void> {
  await restoreMap(clusterEnvironment, map);
  await expect
    .poll(async () => (await Promise.all(instanceOrigins().map(remotesJsonOf))).map(membersGet), { timeout: 5_000 })
    .toEqual(instanceOrigins().map(() => membersGet(served)));
}
