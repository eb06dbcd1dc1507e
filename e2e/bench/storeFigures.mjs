// The store's two figures for `npm run bench:cluster` (docs/performance.md, "Front door"), on a
// running cluster, against the environment it serves:
//  - propagation: how long a rollout change takes, from the COMMIT of its compare-and-set, to be
//    in the /remotes.json of every instance, each asked straight on its own port every ~10 ms
//    (docs/deploy.md, "Changes: compare-and-set, audit trail, NOTIFY"); target p99 ≤ 1 s;
//  - release-health reports through the front door (nginx → instances → collector → PostgreSQL)
//    at a steady rate, sent as a page's beacons are, from many loopback addresses; then the store
//    must hold exactly the reports answered 204, release by release and outcome by outcome.
// Both use releases published for the run (copies of each remote's build), so the reports are
// told apart from anyone else's and removed after; the map is put back as found.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { environment, forgetHealth, healthCounts, openStore, publishCopies, setCanary, setStable } from './clusterStore.mjs';
import { issueTicket } from '@netnet/control-plane/health';
import { site, SITE } from './site.mjs';
import { percentile, steadyLoad } from './steadyLoad.mjs';

/** The secret the benchmark's cluster signs tickets with, so its load generator can sign them too. */
export const BENCH_TICKET_SECRET = randomBytes(32).toString('base64url');
export const STORE_TARGETS = { propagationP99Ms: 1_000, reportsPerSecond: 5_000, reportsP99Ms: 50 };

// The remote whose canary the propagation changes.
const REMOTE = 'remote-title';
const POLL_MS = 10;
// A change not on every instance by then is counted as not propagated.
const CHANGE_TIMEOUT_MS = 10_000;
const REPORTS_PER_BATCH = site.remotes.length;
// Source addresses of the reports: nginx and the collector each keep a bucket per address
// (docs/deploy.md, "Limits"), and at 1,250 batches/s 2,000 addresses send well under 1 a second each.
const CLIENTS = 2_000;
const REPORT_TIMEOUT_MS = 10_000;

/** The n-th loopback source address (all of 127.0.0.0/8 is this machine), away from 127.0.0.x. */
const addressOf = (n) => `127.10.${Math.floor((n % CLIENTS) / 250)}.${1 + (n % 250)}`;

/** What an instance answers at /remotes.json, as a browser asks for it (never from a cache). */
async function servedBy(origin) {
  const response = await fetch(`${origin}/remotes.json`, { headers: { 'Cache-Control': 'no-cache' }, signal: AbortSignal.timeout(2_000) }).catch((error) => {
    throw new Error(`${origin}/remotes.json: ${error.cause?.message ?? error.message}`);
  });
  if (!response.ok) throw new Error(`${origin}/remotes.json: ${response.status}`);
  // The map alone: the release-health ticket beside it is this request's own.
  const { ticket: _ticket, ...map } = await response.json();
  return map;
}

/** Of each remote: the stable and the canary served (not the pinnable list, which publishing changes). */
const servedPlans = (map) => JSON.stringify(Object.entries(map.remotes).map(([remote, { stable, canary }]) => [remote, stable, canary ?? null]));

/**
 * Milliseconds from `from` (performance.now()) until every origin answers a map that passes
 * `test`, each polled every POLL_MS; null if one did not within `timeoutMs`.
 */
async function untilEvery(origins, test, { from, timeoutMs }) {
  const times = await Promise.all(
    origins.map(async (origin) => {
      for (;;) {
        const map = await servedBy(origin).catch(() => null);
        const at = performance.now();
        if (map && test(map)) return at - from;
        if (at - from > timeoutMs) return null;
        await sleep(POLL_MS);
      }
    }),
  );
  return times.includes(null) ? null : Math.max(...times);
}

/** `changes` canary percents of REMOTE, each timed from its COMMIT until on every instance. */
async function propagation(store, origins, { changes, stable, canary }) {
  const onEvery = (test) => untilEvery(origins, test, { from: performance.now(), timeoutMs: CHANGE_TIMEOUT_MS });
  const releases = await store.releases();
  await store.change((latest) => setStable(latest, REMOTE, stable, releases), { action: 'stable', remote: REMOTE });
  if ((await onEvery((map) => map.remotes[REMOTE].stable.version === stable && !map.remotes[REMOTE].canary)) === null) {
    throw new Error(`${REMOTE} ${stable} was not on every instance within ${CHANGE_TIMEOUT_MS / 1000} s`);
  }
  const times = [];
  let missed = 0;
  for (let i = 0; i < changes; i += 1) {
    // Every change another percent: an instance still on an earlier one can never pass for done.
    const percent = 1 + (i % 100);
    const { committedAt } = await store.change((latest) => setCanary(latest, REMOTE, canary, percent, releases), { action: 'canary', remote: REMOTE });
    const ms = await untilEvery(
      origins,
      (map) => map.remotes[REMOTE].stable.version === stable && map.remotes[REMOTE].canary?.version === canary && map.remotes[REMOTE].canary.percent === percent,
      { from: committedAt, timeoutMs: CHANGE_TIMEOUT_MS },
    );
    if (ms === null) missed += 1;
    else times.push(ms);
    // Changes at uneven moments, not in step with the instances' own 2 s check of the map's version.
    await sleep(50 + Math.random() * 100);
  }
  return {
    changes,
    missed,
    p50Ms: percentile(times, 50),
    p99Ms: missed > 0 ? null : percentile(times, 99),
    maxMs: missed > 0 ? null : Math.max(...times),
  };
}

/** The reports of the n-th page load: one per remote, a fifth of them with REMOTE's canary. */
function reportsOf(n, { stable, canary }) {
  return site.remotes.map((remote, slot) => {
    const onCanary = remote === REMOTE && n % 5 === 0;
    return {
      remote,
      release: onCanary ? canary : stable,
      channel: onCanary ? 'canary' : 'stable',
      outcome: (n + slot) % 50 === 0 ? 'fell-back' : 'loaded',
      ...(slot === 0 && { vitals: { lcp: 900 + (n % 2000), cls: 0.01 } }),
    };
  });
}

/** What the store should have gained from the batches acknowledged, as healthCounts() keys it; LCP samples summed per release. */
function expectedCounts(acknowledged, versions) {
  const counts = new Map();
  const add = (key) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const n of acknowledged) {
    for (const { remote, release, channel, outcome, vitals } of reportsOf(n, versions)) {
      add(`${remote} ${release} ${channel} outcome:${outcome}`);
      if (vitals?.lcp !== undefined) add(`${remote} ${release} ${channel} lcp`);
    }
  }
  return counts;
}

/** healthCounts()' LCP buckets summed per release: the samples, whatever bucket each fell in. */
function lcpSummed(counts) {
  const summed = new Map();
  for (const [key, count] of counts) {
    const at = key.lastIndexOf(' lcp:');
    const name = at === -1 ? key : `${key.slice(0, at)} lcp`;
    summed.set(name, (summed.get(name) ?? 0) + count);
  }
  return summed;
}

/** What `after` holds beyond `before`, without zeros. */
function gained(before, after) {
  const result = new Map();
  for (const [key, count] of after) if (count - (before.get(key) ?? 0) !== 0) result.set(key, count - (before.get(key) ?? 0));
  return result;
}

const sameCounts = (a, b) => a.size === b.size && [...a].every(([key, count]) => b.get(key) === count);

/**
 * One batch POSTed to the front door as a page's beacon is (navigator.sendBeacon: text/plain, the
 * page's own Origin, Sec-Fetch-Site same-origin), from the n-th client address, on a connection of
 * its own. Timed from when it was due (its call), so the connection's setup is in it.
 *
 * A connection each, not one kept alive per address: 2,000 idle kept-alive connections would hold
 * as many of nginx's descriptors (and of this process's) for its 30 s keep-alive, more than a
 * default `ulimit -n` of 1,024 allows. A browser whose page connection is still open sends its beacon
 * on it, which is quicker: the figure here is the slower case.
 */
/**
 * A page load's ticket for `reports`, as an instance would have signed it: the cluster runs with
 * the benchmark's secret (BENCH_TICKET_SECRET, given to it as NETNET_TICKET_SECRET).
 */
function ticketOf(reports) {
  return issueTicket({
    secrets: [Buffer.from(BENCH_TICKET_SECRET)],
    releases: reports.map(({ remote, release, channel }) => ({ remote, version: release, channel })),
  });
}

function postBatch(n, body) {
  const { hostname, port, host, origin } = new URL(SITE);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      {
        // An IPv4 address to connect to: a loopback source cannot reach ::1, where localhost may resolve first.
        host: hostname === 'localhost' ? '127.0.0.1' : hostname,
        port,
        // Routed by the ticket's key, as a page's beacon is: page loads spread over the instances.
        path: `/health/reports?k=${encodeURIComponent(JSON.parse(body).ticket.slice(-16))}`,
        method: 'POST',
        localAddress: addressOf(n),
        agent: false,
        headers: {
          Host: host,
          Origin: origin,
          'Sec-Fetch-Site': 'same-origin',
          'Sec-Fetch-Mode': 'no-cors',
          'Sec-Fetch-Dest': 'empty',
          'Content-Type': 'text/plain;charset=UTF-8',
          'Content-Length': Buffer.byteLength(body),
          Connection: 'close',
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ n, status: response.statusCode, ms: performance.now() - started }));
        response.on('error', reject);
      },
    );
    request.setTimeout(REPORT_TIMEOUT_MS, () => request.destroy(new Error(`no answer within ${REPORT_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** `reportsPerSecond` reports in batches through the front door for `seconds`; then the store checked against the 204s. */
async function frontDoorReports(store, { reportsPerSecond, seconds, stable, canary }) {
  const versions = { stable, canary };
  const releases = [...site.remotes.map((remote) => ({ remote, version: stable })), { remote: REMOTE, version: canary }];
  const before = await healthCounts(store.pool, releases);
  const { samples, failures, seconds: sent } = await steadyLoad({
    rate: reportsPerSecond / REPORTS_PER_BATCH,
    duration: seconds,
    send: (n) => {
      const reports = reportsOf(n, versions);
      return postBatch(n, JSON.stringify({ ticket: ticketOf(reports), reports }));
    },
  });
  const statuses = {};
  for (const { status } of samples) statuses[status] = (statuses[status] ?? 0) + 1;
  const acknowledged = samples.filter((sample) => sample.status === 204).map((sample) => sample.n);
  const after = await healthCounts(store.pool, releases);
  const stored = lcpSummed(gained(before, after));
  const expected = expectedCounts(acknowledged, versions);
  const sessions = (counts) => [...counts].filter(([key]) => key.includes(' outcome:')).reduce((sum, [, count]) => sum + count, 0);
  return {
    offeredPerSecond: reportsPerSecond,
    seconds: sent,
    batches: samples.length + failures.length,
    statuses,
    errors: failures.length,
    firstError: failures[0] ?? null,
    reportsPerSecond: (acknowledged.length * REPORTS_PER_BATCH) / sent,
    p50Ms: percentile(samples.map((sample) => sample.ms), 50),
    p99Ms: percentile(samples.map((sample) => sample.ms), 99),
    acknowledgedSessions: sessions(expected),
    storedSessions: sessions(stored),
    exact: sameCounts(stored, expected),
  };
}

/**
 * Both figures on the running cluster. `onUndo` gets the cleanup while there is one (for a Ctrl-C
 * mid-way), null once done. The environment's map is put back and the run's releases and their
 * counts removed, whatever happens.
 */
export async function storeFigures({ instances, changes, reportsPerSecond, reportSeconds, log, onUndo }) {
  const origins = instances.map((instance) => `http://127.0.0.1:${instance.port}`);
  const run = Date.now().toString(36);
  const stable = `9.0.0-bench.${run}`;
  const canary = `9.1.0-bench.${run}`;
  const store = await openStore();
  const found = await store.readMap();
  const servedBefore = await Promise.all(origins.map(servedBy));
  const releases = [...site.remotes.map((remote) => ({ remote, version: stable })), { remote: REMOTE, version: canary }];
  let unpublish = async () => {};
  const undo = async () => {
    // Each step whatever the one before did: a map left changed or releases left published would outlive the run.
    const steps = [
      () => store.putBack(found),
      () => forgetHealth(store.pool, releases),
      () => unpublish(),
    ];
    for (const step of steps) await step().catch((error) => console.error(`bench:cluster cleanup: ${error.message}`));
  };
  onUndo(async () => {
    await undo();
    await store.close();
  });
  try {
    log(`  publishing ${releases.length} copies of the remotes' builds as ${stable} (and ${REMOTE} ${canary}) for the ${environment} environment…`);
    unpublish = await publishCopies(store.pool, releases);
    log(`  ${changes} rollout changes, each until on all ${origins.length} instances…`);
    const changed = await propagation(store, origins, { changes, stable, canary });
    await store.putBack(found);
    const back = await untilEvery(origins, (map) => servedPlans(map) === servedPlans(servedBefore[0]), { from: performance.now(), timeoutMs: CHANGE_TIMEOUT_MS });
    if (back === null) throw new Error(`the ${environment} map put back was not on every instance within ${CHANGE_TIMEOUT_MS / 1000} s`);
    log(`  ${reportsPerSecond} release-health reports/s through nginx for ${reportSeconds} s from ${CLIENTS} addresses…`);
    const reports = await frontDoorReports(store, { reportsPerSecond, seconds: reportSeconds, stable, canary });
    return { propagation: changed, reports };
  } finally {
    await undo();
    onUndo(null);
    // The instances list the releases no more: each serves exactly what it served before the run.
    const asBefore = await untilEvery(origins, (map) => JSON.stringify(map) === JSON.stringify(servedBefore[0]), { from: performance.now(), timeoutMs: 5_000 }).catch(() => null);
    if (asBefore === null) console.error(`bench:cluster: the instances do not serve what they served before the run (${origins.join(', ')}/remotes.json)`);
    await store.close();
  }
}
