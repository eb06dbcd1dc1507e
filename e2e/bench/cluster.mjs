// `npm run bench:cluster`: the front door's figures (docs/performance.md; the topology: docs/deploy.md), 1 and 2 shell instances side by
// side in one sitting. For each count it starts `npm run start:cluster` with NETNET_INSTANCES set,
// then, on loopback through nginx:
//  - server renders/s (pages the render cap left to the browser apart) and latency of / for a
//    visitor with a fixed device cookie, autocannon, 50 connections;
//  - a rolling restart of every instance (SIGHUP to the cluster) under a steady 200 GETs/s for 30 s;
//  - kill -9 of one instance under a steady 200 GETs/s for 30 s;
//  - with 2 instances or more, the store's figures (./storeFigures.mjs): how long 50 rollout changes
//    take to be in every instance's /remotes.json, and 5,000 release-health reports/s for 10 s
//    through nginx into PostgreSQL, the store then holding exactly what was acknowledged;
// and prints the failed requests of each beside the targets. Writes e2e/bench/results/cluster-<date>.json.
//
//   npm run bench:cluster -- [--duration 10] [--connections 50] [--rate 200] [--seconds 30] [--instances 1,2] [--check]
//                            [--changes 50] [--report-rate 5000] [--report-seconds 10]
//
// The load generator, nginx and the instances share this machine's two cores: a second instance
// can only add what the first left idle.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { root } from '../../scripts/build.mjs';
import { withTsx } from '../../site/tsx.mjs';
import { getFrom } from '../support/loopbackClients.mjs';
import { percentile, steadyLoad } from './steadyLoad.mjs';
import { site, SITE } from './site.mjs';
import { checkExitCode, mark } from './check.mjs';
import { BENCH_TICKET_SECRET, STORE_TARGETS, storeFigures } from './storeFigures.mjs';

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
    changes: number('--changes', 50),
    reportRate: number('--report-rate', STORE_TARGETS.reportsPerSecond),
    reportSeconds: number('--report-seconds', 10),
  };
}

const clusterState = () => JSON.parse(readFileSync(STATE_FILE, 'utf8'));
/** Milliseconds as printed: whole ones, "—" for none. */
const ms = (value) => (value === null || value === undefined ? '—' : String(Math.round(value)));

/** The cluster running now: stopped with this process, however it ends (its own process group outlives a kill of ours). */
let running = null;
/** What the store's figures must undo before the cluster (and its database) stops: the map put back, the run's releases removed. */
let undoStore = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    const undo = undoStore ? Promise.race([undoStore(), sleep(15_000)]).catch(() => {}) : Promise.resolve();
    void undo.then(() => running?.stop()).finally(() => process.exit(1));
  });
}


/** `npm run start:cluster` in a process group of its own; resolves once it says it is ready. */
async function startCluster(instances) {
  const child = spawn(process.execPath, [...withTsx(), join(root, 'site/cluster/start.mjs')], {
    cwd: root,
    // autocannon's connections all come from 127.0.0.1 but stand for as many members: nginx's
    // per-client page limit (8 at once) would turn most of them away.
    env: { ...process.env, NETNET_INSTANCES: String(instances), NETNET_NGINX_PAGES_PER_CLIENT: '256', NETNET_NGINX_PAGES_PER_SECOND: '100000', NETNET_TICKET_SECRET: BENCH_TICKET_SECRET },
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
 * instance answers with the page for the browser to render (docs/limits.md),
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
    let killedPid = null;
    const killed = await steadyGets(opts, async () => {
      await sleep(5_000);
      killedPid = clusterState().instances[0].pid;
      process.kill(killedPid, 'SIGKILL');
    });
    let store = null;
    if (count >= 2) {
      // The instance killed above is back (the supervisor replaced it) before the store is measured.
      await waitAllReady(killedPid);
      store = await storeFigures({
        instances: clusterState().instances,
        changes: opts.changes,
        reportsPerSecond: opts.reportRate,
        reportSeconds: opts.reportSeconds,
        log,
        onUndo: (undo) => (undoStore = undo),
      });
    }
    return { instances: count, ...load, rollingRestart: rolling, kill9: killed, store };
  } finally {
    await cluster.stop();
    running = null;
  }
}

/** Until every instance is ready, none of them the process `gone` (one killed, which the state may still list for a moment). */
async function waitAllReady(gone = null) {
  for (let i = 0; i < 600; i += 1) {
    if (clusterState().instances.every((instance) => instance.state === 'ready' && instance.pid !== null && instance.pid !== gone)) return;
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
    if (run.store) {
      const { propagation: changed, reports } = run.store;
      log(`  rollout changes on every instance: p50 ${ms(changed.p50Ms)}, p99 ${ms(changed.p99Ms)}, max ${ms(changed.maxMs)} ms (${changed.missed} of ${changed.changes} not within 10 s)`);
      log(
        `  reports through nginx: ${Math.round(reports.reportsPerSecond)}/s acknowledged of ${reports.offeredPerSecond}/s, p99 ${ms(reports.p99Ms)} ms; ` +
          `answers ${JSON.stringify(reports.statuses)}, ${reports.errors} errors${reports.firstError ? ` (${reports.firstError})` : ''}; ` +
          `stored ${reports.storedSessions} sessions of ${reports.acknowledgedSessions} acknowledged`,
      );
    }
  }
  const one = runs.find((run) => run.instances === 1);
  const two = runs.find((run) => run.instances === 2);
  const speedUp = one && two ? two.rendersPerSecond / one.rendersPerSecond : null;

  // Every target is judged on the run with 2 instances (the speed-up against 1); not measured is "?".
  const targets = [];
  const withTarget = (label, cell, text, met) => {
    targets.push({ label: `${label}: ${text}`, met });
    return [label, cell, `${text}: ${mark(met)}`];
  };
  // The store's figures, measured with 2 instances and more; "—" for 1.
  const ofStore = (cell) => (run) => (run.store ? cell(run.store) : '—');
  const storeTarget = (label, cell, text, met) => withTarget(label, ofStore(cell), `${text} with 2`, two?.store ? met(two.store) : null);
  const withTwo = (met) => (two ? met(two) : null);
  const rows = [
    withTarget(
      'server renders/s of / (50 connections)',
      (run) => run.rendersPerSecond.toFixed(0),
      `≥ ${TARGETS.speedUp}× of 1${speedUp === null ? '' : `: ${speedUp.toFixed(2)}×`}`,
      speedUp === null ? null : speedUp >= TARGETS.speedUp,
    ),
    ['pages left to the browser/s (render cap)', (run) => run.unrenderedPerSecond.toFixed(0), ''],
    ['/ p50 ms (50 connections)', (run) => String(run.p50Ms), ''],
    withTarget('/ p99 ms (50 connections)', (run) => String(run.p99Ms), `≤ ${TARGETS.p99Ms} with 2`, withTwo((run) => run.p99Ms <= TARGETS.p99Ms)),
    withTarget(
      `rolling restart, ${opts.rate}/s × ${opts.seconds} s: failed`,
      (run) => `${run.rollingRestart.failed} of ${run.rollingRestart.sent}`,
      `${TARGETS.failed} with 2`,
      withTwo((run) => run.rollingRestart.failed <= TARGETS.failed),
    ),
    withTarget(
      `kill -9 of one, ${opts.rate}/s × ${opts.seconds} s: failed`,
      (run) => `${run.kill9.failed} of ${run.kill9.sent}`,
      `${TARGETS.failed} with 2`,
      withTwo((run) => run.kill9.failed <= TARGETS.failed),
    ),
    ['p99 ms during the rolling restart', (run) => String(Math.round(run.rollingRestart.p99Ms ?? 0)), ''],
    ['p99 ms during kill -9', (run) => String(Math.round(run.kill9.p99Ms ?? 0)), ''],
    storeTarget(
      `rollout change on every instance, ms p50/p99/max (${opts.changes})`,
      ({ propagation: changed }) => `${ms(changed.p50Ms)} / ${ms(changed.p99Ms)} / ${ms(changed.maxMs)}`,
      `p99 ≤ ${STORE_TARGETS.propagationP99Ms}`,
      ({ propagation: changed }) => changed.p99Ms !== null && changed.p99Ms <= STORE_TARGETS.propagationP99Ms,
    ),
    storeTarget(
      `health reports/s through nginx (${opts.reportRate}/s offered)`,
      ({ reports }) => String(Math.round(reports.reportsPerSecond)),
      `≥ ${STORE_TARGETS.reportsPerSecond}`,
      // Judged as printed: the pacing's last timer firing a millisecond late leaves 4,999.6/s of 5,000 offered.
      ({ reports }) => Math.round(reports.reportsPerSecond) >= STORE_TARGETS.reportsPerSecond,
    ),
    storeTarget(
      `health reports p99 ms at ${opts.reportRate}/s`,
      ({ reports }) => ms(reports.p99Ms),
      `≤ ${STORE_TARGETS.reportsP99Ms}`,
      ({ reports }) => reports.p99Ms !== null && reports.p99Ms <= STORE_TARGETS.reportsP99Ms,
    ),
    ['health batches answered 429 / 503 / errors', ofStore(({ reports }) => `${reports.statuses[429] ?? 0} / ${reports.statuses[503] ?? 0} / ${reports.errors}`), ''],
    storeTarget(
      'store holds exactly what was acknowledged',
      ({ reports }) => `${reports.exact ? 'yes' : 'no'} (${reports.storedSessions} sessions)`,
      'yes',
      ({ reports }) => reports.exact,
    ),
  ];
  const header = ['', ...runs.map((run) => `${run.instances} instance(s)`), 'target'];
  const table = [header, ...rows.map(([label, cell, target]) => [label, ...runs.map(cell), target])];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column].length)));
  log('');
  for (const row of table) log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
  // Reports acknowledged and not stored (or stored and refused) are a bug, not a slow machine.
  if (runs.some((run) => run.store && !run.store.reports.exact)) process.exitCode = 1;

  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const results = join(root, 'e2e/bench/results');
  mkdirSync(results, { recursive: true });
  const file = join(results, `cluster-${date.replace(/:/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ date, options: opts, ports: site.ports, speedUp, runs }, null, 2)}\n`);
  log(`\nwritten to ${relative(process.cwd(), file)}`);
  if (checkExitCode('bench:cluster', targets, log)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
