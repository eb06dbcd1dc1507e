// `npm run bench:cluster`: the front door's figures (docs/deploy.md), 1 and 2 shell instances side by
// side in one sitting. For each count it starts `npm run start:cluster` with NETNET_INSTANCES set,
// then, on loopback through nginx:
//  - server renders/s (pages the render cap left to the browser apart) and latency of / for a
//    visitor with a fixed device cookie, autocannon, 50 connections;
//  - a rolling restart of every instance (SIGHUP to the cluster) under a steady 200 GETs/s for 30 s;
//  - kill -9 of one instance under a steady 200 GETs/s for 30 s;
// and prints the failed requests of each beside the targets. Writes e2e/bench/results/cluster-<date>.json.
//
//   npm run bench:cluster -- [--duration 10] [--connections 50] [--rate 200] [--seconds 30] [--instances 1,2]
//
// The load generator, nginx and the instances share this machine's two cores: a second instance
// can only add what the first left idle.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { root } from '../../scripts/build.mjs';
import { withTsx } from '../../scripts/tsx.mjs';
import { getFrom } from '../support/loopbackClients.mjs';
import { percentile, steadyLoad } from './steadyLoad.mjs';
import { site, SITE } from './site.mjs';

const TARGETS = { speedUp: 1.6, p99Ms: 100, failed: 0 };
const DEVICE_COOKIE = 'netnet-device=bench-cluster-device';
const MEMBER_COOKIE = `${DEVICE_COOKIE}; netnet-member=bench-cluster-member`;
const STATE_FILE = join(root, '.cluster', 'state.json');

function options(argv) {
  const value = (flag, fallback) => {
    const at = argv.indexOf(flag);
    return at === -1 ? fallback : argv[at + 1];
  };
  const number = (flag, fallback) => {
    const n = Number(value(flag, fallback));
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number`);
    return n;
  };
  return {
    duration: number('--duration', 10),
    connections: number('--connections', 50),
    rate: number('--rate', 200),
    seconds: number('--seconds', 30),
    counts: String(value('--instances', '1,2')).split(',').map(Number),
  };
}

const clusterState = () => JSON.parse(readFileSync(STATE_FILE, 'utf8'));

/** The cluster running now: stopped with this process, however it ends (its own process group outlives a kill of ours). */
let running = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    void (running?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
  });
}


/** `npm run start:cluster` in a process group of its own; resolves once it says it is ready. */
async function startCluster(instances) {
  const child = spawn(process.execPath, [...withTsx(), join(root, 'scripts/cluster/start.mjs')], {
    cwd: root,
    env: { ...process.env, NETNET_INSTANCES: String(instances) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const cluster = {
    pid: child.pid,
    async stop() {
      const exited = new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([exited, sleep(20_000)]);
      // Whatever is left of the group (nginx, the emulator) goes too.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
  running = cluster;
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the cluster did not start within 10 minutes:\n${output.slice(-2000)}`)), 600_000);
    const read = (chunk) => {
      output += chunk;
      if (/Netnet is ready on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`the cluster stopped (exit ${code}):\n${output.slice(-2000)}`)));
  });
  child.removeAllListeners('exit');
  return cluster;
}

/**
 * Renders of / at `connections`. Only pages rendered on the server count: past its render cap an
 * instance answers with the page for the browser to render (docs/architecture.md, "Limits"),
 * which is quicker and would inflate the figure. Bodies are read uncompressed to tell them apart.
 */
async function renders({ duration, connections }) {
  let rendered = 0;
  let unrendered = 0;
  const result = await autocannon({
    url: `${SITE}/`,
    connections,
    duration,
    headers: { cookie: DEVICE_COOKIE, 'accept-encoding': 'identity' },
    requests: [
      {
        onResponse: (status, body) => {
          if (status !== 200) return;
          if (body.includes('id="netnet-state"')) rendered += 1;
          else unrendered += 1;
        },
      },
    ],
  });
  return {
    rendersPerSecond: rendered / result.duration,
    unrenderedPerSecond: unrendered / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * A steady load of GETs (a visitor's / and a member's title page in turn) from 50 clients, each
 * from a loopback address of its own, while `during` runs.
 */
async function steadyGets({ rate, seconds }, during) {
  const statuses = new Map();
  const load = steadyLoad({
    rate,
    duration: seconds,
    send: async (i) => {
      const [path, cookie] = i % 2 ? ['/title/604', MEMBER_COOKIE] : ['/', DEVICE_COOKIE];
      const { status, ms } = await getFrom(SITE, path, { client: i % 50, headers: { cookie, 'accept-encoding': 'br, gzip' } });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status !== 200) throw new Error(`status ${status}`);
      return ms;
    },
  });
  await during();
  const { samples, failures } = await load;
  return { sent: samples.length + failures.length, failed: failures.length, p99Ms: percentile(samples, 99), statuses: Object.fromEntries(statuses) };
}

async function measure(count, opts, log) {
  log(`\n${count} instance(s): starting the cluster…`);
  const cluster = await startCluster(count);
  try {
    // Warm: the first renders of each page compile and fill the instances' caches.
    await autocannon({ url: `${SITE}/`, connections: 10, amount: 500, headers: { cookie: DEVICE_COOKIE } });
    log('  renders of / at 50 connections…');
    const load = await renders(opts);
    log(`  rolling restart under ${opts.rate} GETs/s for ${opts.seconds} s…`);
    const rolling = await steadyGets(opts, async () => {
      await sleep(2_000);
      const before = clusterState().rollingRestarts;
      process.kill(cluster.pid, 'SIGHUP');
      while (clusterState().rollingRestarts === before) await sleep(200);
    });
    await waitAllReady();
    log(`  kill -9 of one instance under ${opts.rate} GETs/s for ${opts.seconds} s…`);
    const killed = await steadyGets(opts, async () => {
      await sleep(5_000);
      process.kill(clusterState().instances[0].pid, 'SIGKILL');
    });
    return { instances: count, ...load, rollingRestart: rolling, kill9: killed };
  } finally {
    await cluster.stop();
    running = null;
  }
}

async function waitAllReady() {
  for (let i = 0; i < 600; i += 1) {
    if (clusterState().instances.every((instance) => instance.state === 'ready')) return;
    await sleep(100);
  }
  throw new Error('the instances did not come back');
}

async function main() {
  const opts = options(process.argv.slice(2));
  const log = console.log;
  if (await fetch(`${SITE}/config.json`).then(() => true, () => false)) {
    throw new Error(`Something already answers on ${SITE}: stop it first (this benchmark starts its own cluster).`);
  }
  const runs = [];
  for (const count of opts.counts) {
    const run = await measure(count, opts, log);
    runs.push(run);
    log(`  ${run.rendersPerSecond.toFixed(0)} renders/s, / p99 ${run.p99Ms} ms; rolling restart: ${run.rollingRestart.failed} of ${run.rollingRestart.sent} failed; kill -9: ${run.kill9.failed} of ${run.kill9.sent} failed`);
  }
  const one = runs.find((run) => run.instances === 1);
  const two = runs.find((run) => run.instances === 2);
  const speedUp = one && two ? two.rendersPerSecond / one.rendersPerSecond : null;

  const rows = [
    ['server renders/s of / (50 connections)', (run) => run.rendersPerSecond.toFixed(0), two && speedUp !== null ? `≥ ${TARGETS.speedUp}× of 1: ${speedUp.toFixed(2)}×` : ''],
    ['pages left to the browser/s (render cap)', (run) => run.unrenderedPerSecond.toFixed(0), ''],
    ['/ p50 ms (50 connections)', (run) => String(run.p50Ms), ''],
    ['/ p99 ms (50 connections)', (run) => String(run.p99Ms), `≤ ${TARGETS.p99Ms} with 2`],
    [`rolling restart, ${opts.rate}/s × ${opts.seconds} s: failed`, (run) => `${run.rollingRestart.failed} of ${run.rollingRestart.sent}`, `${TARGETS.failed} with 2`],
    [`kill -9 of one, ${opts.rate}/s × ${opts.seconds} s: failed`, (run) => `${run.kill9.failed} of ${run.kill9.sent}`, `${TARGETS.failed} with 2`],
    ['p99 ms during the rolling restart', (run) => String(Math.round(run.rollingRestart.p99Ms ?? 0)), ''],
    ['p99 ms during kill -9', (run) => String(Math.round(run.kill9.p99Ms ?? 0)), ''],
  ];
  const header = ['', ...runs.map((run) => `${run.instances} instance(s)`), 'target'];
  const table = [header, ...rows.map(([label, cell, target]) => [label, ...runs.map(cell), target])];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column].length)));
  log('');
  for (const row of table) log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));

  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const results = join(root, 'e2e/bench/results');
  mkdirSync(results, { recursive: true });
  const file = join(results, `cluster-${date.replace(/:/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ date, options: opts, ports: site.ports, speedUp, runs }, null, 2)}\n`);
  log(`\nwritten to ${relative(process.cwd(), file)}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
