// `npm run bench:health`: how many release-health reports the collector takes (docs/architecture.md,
// "Release health"). The collector runs as the shell's server runs it (scripts/serve.mjs with the
// collector as a service, a store on disk that fsyncs every write before answering) in a child
// process; this process loads it with autocannon from loopback, with batches of 4 reports (a page
// load with a few remotes) from 2,000 client addresses, as a proxy in front would vouch for them
// (X-Forwarded-For), one request in 10 garbage:
//  - at a steady 2,000 valid reports/s (556 batches/s, paced here, e2e/bench/steadyLoad.mjs): the
//    latency there, counted from when each batch was due;
//  - flat out on 50 connections: the most it takes;
//  - then the figures on disk, read as after a restart, must hold exactly the reports it
//    acknowledged: a refused batch never changed them.
// Prints the figures beside the targets (≥ 2,000 reports/s with p99 ≤ 20 ms).
//
//   npm run bench:health -- [--duration 10] [--connections 50] [--batches 20000]
//
// The load generator shares the machine with the collector: on 2 cores the figures are what this
// machine gives, not what a collector alone on it would.
import { fork } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { percentile, steadyLoad } from './steadyLoad.mjs';

const TARGETS = { reportsPerSecond: 2000, p99Ms: 20 };
const REPORTS_PER_BATCH = 4;
const CLIENTS = 2000;
const RELEASES = [
  ['remote-title', '1.0.0', 'stable'],
  ['remote-title', '1.1.0', 'canary'],
  ['remote-browse', '1.0.0', 'stable'],
  ['remote-auth', '1.0.0', 'stable'],
];

async function serve(dir) {
  const { createCollector } = await import('../../control-plane/src/health/collector.mjs');
  const { openDatabase } = await import('../../control-plane/src/store/database.mjs');
  const { createHealthStore } = await import('../../control-plane/src/store/health.mjs');
  const { serveApp } = await import('../../scripts/serve.mjs');
  // A real PostgreSQL of the benchmark's own (embedded, in its folder), as the site's server uses.
  const database = await openDatabase({ env: { NETNET_DEPLOY_DIR: dir } });
  const store = createHealthStore({ db: database.pool, environment: 'bench' });
  const collector = createCollector({
    store,
    isKnownRelease: (remote, release) => RELEASES.some(([name, version]) => name === remote && version === release),
    clientOf: (req) => String(req.headers['x-forwarded-for'] ?? req.socket.remoteAddress),
    env: {},
  });
  const server = await serveApp({ dir, port: 0, services: [collector] });
  process.send({ port: server.address().port });
  process.on('message', async () => {
    server.close();
    await store.close();
    await database.close();
    process.exit(0);
  });
}

function batch(index) {
  const reports = Array.from({ length: REPORTS_PER_BATCH }, (_, slot) => {
    const [remote, release, channel] = RELEASES[(index + slot) % RELEASES.length];
    return { remote, release, channel, outcome: (index + slot) % 50 === 0 ? 'fell-back' : 'loaded', ...(slot === 0 && { vitals: { lcp: 900 + (index % 2000), cls: 0.01 } }) };
  });
  return JSON.stringify({ reports });
}

const GARBAGE = [
  '{"reports":[{"remote":"remote-title","release":"1.0.0","channel":"stable","outcome":"loaded","uid":"x"}]}',
  'not json',
  '{"reports":[{"remote":"remote-title","release":"9.9.9","channel":"stable","outcome":"loaded"}]}',
];

function options(argv) {
  const number = (flag, fallback) => {
    const at = argv.indexOf(flag);
    const value = at === -1 ? fallback : Number(argv[at + 1]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} needs a positive number`);
    return value;
  };
  return { duration: number('--duration', 10), connections: number('--connections', 50), batches: number('--batches', 20_000) };
}

/** The n-th request: a batch (one in 10 garbage) from one of CLIENTS addresses. */
const requestOf = (n) => ({
  headers: { 'content-type': 'text/plain;charset=UTF-8', 'x-forwarded-for': `10.0.${(n % CLIENTS) >> 8}.${n % 256}` },
  body: n % 10 === 0 ? GARBAGE[n % GARBAGE.length] : batch(n),
});

/** autocannon on the collector, flat out: `amount` requests, every one answered before it resolves. */
function flatOut(port, { amount, connections }) {
  let sent = 0;
  return autocannon({
    url: `http://127.0.0.1:${port}/health/reports`,
    connections,
    amount,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, ...requestOf((sent += 1)) }) }],
  });
}

/** One POST, its time counted from when it was called (so a wait for a free socket is in it). */
function timedPost(port, agent, n) {
  const { headers, body } = requestOf(n);
  return new Promise((resolve, reject) => {
    const due = performance.now();
    const request = http.request({ host: '127.0.0.1', port, path: '/health/reports', method: 'POST', agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode, totalMs: performance.now() - due }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** `rate` batches a second for `duration` s over at most `connections` kept-alive sockets. */
async function steady(port, { rate, duration, connections }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  // Numbered from 1, as flatOut's are: the same one in 10 is garbage.
  const { samples, failures, seconds } = await steadyLoad({ rate, duration, send: (i) => timedPost(port, agent, i + 1) });
  agent.destroy();
  const times = samples.map((sample) => sample.totalMs);
  const count = (low, high) => samples.filter((sample) => sample.status >= low && sample.status < high).length;
  return {
    '2xx': count(200, 300),
    '4xx': count(400, 500),
    non2xx: samples.length - count(200, 300),
    errors: failures.length,
    duration: seconds,
    latency: { p50: percentile(times, 50), p99: percentile(times, 99) },
  };
}

const mark = (ok) => (ok ? '✓' : '✗');

async function bench() {
  const { duration, connections, batches } = options(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'netnet-health-bench-'));
  const child = fork(fileURLToPath(import.meta.url), ['--serve', dir]);
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  // Batches a second so that the valid ones carry the target's reports (one in 10 is garbage).
  const rate = Math.ceil(TARGETS.reportsPerSecond / REPORTS_PER_BATCH / 0.9);
  const held = await steady(port, { rate, duration, connections });
  const flat = await flatOut(port, { amount: batches, connections });
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));

  const { openDatabase } = await import('../../control-plane/src/store/database.mjs');
  const { readFigures } = await import('../../control-plane/src/store/health.mjs');
  const database = await openDatabase({ env: { NETNET_DEPLOY_DIR: dir } });
  const figures = await readFigures(database.pool, 'bench');
  const stored = figures.list().reduce((sum, series) => sum + series.totals.sessions, 0);
  await database.close();
  await database.embedded.stop();
  rmSync(dir, { recursive: true, force: true });

  console.log(`collector: ${REPORTS_PER_BATCH} reports a batch, ${CLIENTS} client addresses, 1 request in 10 garbage, ${connections} connections`);
  const line = (name, result) =>
    `  ${name}: ${result['2xx']} batches accepted (204), ${result['4xx']} refused (4xx), ${result.non2xx - result['4xx']} other, ${result.errors} errors; ` +
    `${Math.round((result['2xx'] * REPORTS_PER_BATCH) / result.duration)} reports/s; latency p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms`;
  console.log(line(`steady ${TARGETS.reportsPerSecond} reports/s for ${duration} s`, held));
  console.log(line(`flat out, ${batches} batches`, flat));
  const most = (flat['2xx'] * REPORTS_PER_BATCH) / flat.duration;
  console.log(`  most reports/s: ${Math.round(most)} (target ≥ ${TARGETS.reportsPerSecond}) ${mark(most >= TARGETS.reportsPerSecond)}`);
  console.log(`  p99 at ${TARGETS.reportsPerSecond} reports/s: ${held.latency.p99.toFixed(1)} ms (target ≤ ${TARGETS.p99Ms}) ${mark(held.latency.p99 <= TARGETS.p99Ms)}`);
  const acknowledged = (held['2xx'] + flat['2xx']) * REPORTS_PER_BATCH;
  console.log(`  sessions in the store, read as after a restart: ${stored}; acknowledged: ${acknowledged} ${mark(stored === acknowledged)}`);
  if (stored !== acknowledged) process.exitCode = 1;
}

if (process.argv[2] === '--serve') await serve(process.argv[3]);
else await bench();
