// Contract of release health in a real PostgreSQL (../store/testDatabase.ts): what the store
// acknowledged is exactly what it holds, however many batches arrive at once and from however
// many instances; batches are summed into few statements; a statement that fails fails every
// batch in it and counts none.
// Run: node --import tsx --test control-plane/src/health/counts.test.ts
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, beforeEach, describe, it } from 'node:test';
import type pg from 'pg';
import { createFigures, failingNetworks, MINUTE_MS, type Counted, type Figures } from './figures.ts';
import { NETWORK_RULES } from './network.ts';
import { OUTCOMES, type ReportedChannel as Channel } from '@netnet/rollout/reports';
import type { Store } from '../store/database.ts';
import { createHealthStore, pruneHealth, readFigures, type HealthStore } from './counts.ts';
import { testDatabase, type TestDatabase } from '../store/testDatabase.ts';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const NOW = T0 + 10 * MINUTE_MS;
const SERIES: [string, string, Channel][] = [
  ['remote-title', '1.3.0', 'stable'],
  ['remote-title', '1.4.0', 'canary'],
  ['remote-browse', '2.0.0', 'stable'],
  ['remote-auth', '1.0.0', 'override'],
];

/** The n-th batch: 1 to 6 reports over the series, some with an LCP, some only vitals. */
function batchOf(n: number): Counted[] {
  return Array.from({ length: 1 + (n % 6) }, (_, slot) => {
    const [remote, release, channel] = SERIES[(n + slot) % SERIES.length]!;
    const report: Counted = { remote, release, channel };
    if ((n + slot) % 7 !== 0) report.outcome = OUTCOMES[(n * 3 + slot) % OUTCOMES.length];
    if ((n + slot) % 3 === 0 || report.outcome === undefined) report.vitals = { lcp: 300 + ((n * 37 + slot * 101) % 6000) };
    return report;
  });
}
/** When the n-th batch is counted: one of the last few minutes. */
const atOf = (n: number) => T0 + (n % 5) * MINUTE_MS + (n % 1000);

/** Everything a figures object holds, in a fixed order, to compare two. */
function contents(figures: Figures) {
  return figures
    .toJSON()
    .series.map(({ remote, release, channel, minutes }) => ({
      key: `${remote} ${release} ${channel}`,
      minutes: minutes
        .map(([minute, { outcomes, lcp }]) => [minute, outcomes, [...lcp].sort((a, b) => a[0] - b[0])] as const)
        .sort((a, b) => a[0] - b[0]),
    }))
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** What the acknowledged batches make: figures recorded here, as the store should hold them. */
interface Batch {
  reports: Counted[];
  at: number;
}

function expected(batches: Batch[]) {
  const figures = createFigures({ windowMinutes: 60, maxSeries: Infinity });
  for (const { reports, at } of batches) figures.record(reports, at);
  figures.prune(NOW);
  return contents(figures);
}

/** The pool, counting the health INSERTs that go through it. */
function counting(pool: pg.Pool): Store & { writes: number } {
  const through = {
    writes: 0,
    connect: () => pool.connect(),
    query(text: string, values?: unknown[]) {
      if (text.includes('INSERT INTO health_counts')) through.writes += 1;
      return pool.query(text, values);
    },
  };
  return through;
}

/** Appends every batch, each settled on its own: { acknowledged, refused } (batches with their errors). */
async function appendAll(store: HealthStore, batches: Batch[]) {
  const settled = await Promise.allSettled(batches.map(({ reports, at }) => store.append(reports, at)));
  return {
    acknowledged: batches.filter((_, i) => settled[i]?.status === 'fulfilled'),
    refused: settled.filter((result) => result.status === 'rejected').map((result): unknown => result.reason),
  };
}

describe('release health store', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let db: TestDatabase['pool'];
  let environment: string;
  let runs = 0;
  const stores: HealthStore[] = [];
  before(async () => {
    database = await testDatabase({ max: 10 });
    db = database.pool;
  });
  after(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await database.close();
  });
  beforeEach(() => {
    environment = `health-${(runs += 1)}`;
  });
  const open = (options: { db?: Store; gatherMs?: number } = {}) => {
    const store = createHealthStore({ db, environment, ...options });
    stores.push(store);
    return store;
  };
  const stored = async (on = environment) => contents(await readFigures(db, on, { now: NOW }));

  it('holds exactly what it acknowledged of thousands of batches at once, in few statements', async () => {
    const through = counting(db);
    const store = open({ db: through });
    const batches = Array.from({ length: 5_000 }, (_, n) => ({ reports: batchOf(n), at: atOf(n) }));
    const { acknowledged, refused } = await appendAll(store, batches);
    assert.deepEqual(refused, []);
    assert.equal(acknowledged.length, batches.length);
    assert.deepEqual(await stored(), expected(batches));
    // The instance's own figures recorded the same, once the store had them.
    store.figures.prune(NOW);
    assert.deepEqual(contents(store.figures), expected(batches));
    assert.ok(through.writes >= 1 && through.writes <= 50, `${through.writes} INSERTs for ${batches.length} batches`);
  });

  it('holds exactly what it acknowledged of batches arriving over time, each acknowledged only once written', async () => {
    const through = counting(db);
    const store = open({ db: through });
    const batches = [];
    const pending = [];
    for (let n = 0; n < 1_500; n += 1) {
      const batch = { reports: batchOf(n), at: atOf(n) };
      batches.push(batch);
      const writesBefore = through.writes;
      pending.push(
        store.append(batch.reports, batch.at).then(() => {
          // A batch resolves after an INSERT that began after it arrived.
          assert.ok(through.writes > writesBefore);
        }),
      );
      if (n % 100 === 99) await sleep(5);
    }
    await Promise.all(pending);
    assert.deepEqual(await stored(), expected(batches));
    assert.ok(through.writes < batches.length / 10, `${through.writes} INSERTs for ${batches.length} batches`);
  });

  it('refuses every batch of a statement that fails and counts none of them; the other statements’ batches all count', async () => {
    const store = open();
    // PostgreSQL refuses a NUL in text: the INSERT carrying this batch fails as a whole.
    const poisoned = (n: number): Counted[] => [{ remote: 'remote-title', release: '1.3.0\u0000', channel: 'stable', outcome: 'loaded' }, ...batchOf(n)];
    const batches: Batch[] = [];
    const settled: Promise<boolean>[] = [];
    for (let n = 0; n < 2_000; n += 1) {
      const batch = { reports: n % 250 === 125 ? poisoned(n) : batchOf(n), at: atOf(n) };
      batches.push(batch);
      settled.push(store.append(batch.reports, batch.at).then(() => true, () => false));
      if (n % 50 === 49) await sleep(5);
    }
    const outcomes = await Promise.all(settled);
    const acknowledged = batches.filter((_, i) => outcomes[i]);
    const refused = batches.length - acknowledged.length;
    // The poisoned ones and the good ones written with them.
    assert.ok(refused > 8, `${refused} refused`);
    assert.ok(acknowledged.length > 0, 'the statements without a poisoned batch');
    for (let i = 0; i < batches.length; i += 1) if (i % 250 === 125) assert.equal(outcomes[i], false);
    assert.deepEqual(await stored(), expected(acknowledged));
    store.figures.prune(NOW);
    assert.deepEqual(contents(store.figures), expected(acknowledged), 'the instance counted only what was stored');
  });

  it('loses nothing when instances add to the same counts at once', async () => {
    // Each instance's batches name the series in its own order: two statements at once take the
    // same rows in different orders.
    const instances = [open(), open(), open()];
    const all: Batch[] = [];
    const runs = instances.map(async (store, index) => {
      const mine: Batch[] = [];
      for (let n = 0; n < 1_200; n += 1) {
        const reports = batchOf(n);
        const batch = { reports: index % 2 ? reports.reverse() : reports, at: atOf(n) };
        mine.push(batch);
        all.push(batch);
      }
      const waves = [];
      for (let from = 0; from < mine.length; from += 200) {
        waves.push(appendAll(store, mine.slice(from, from + 200)));
        await sleep(2);
      }
      return (await Promise.all(waves)).flatMap((wave) => wave.refused.map((error) => (error instanceof Error ? error.message : String(error))));
    });
    const refused = (await Promise.all(runs)).flat();
    assert.deepEqual([...new Set(refused)], [], `${refused.length} batches refused`);
    assert.deepEqual(await stored(), expected(all));
  });

  it('writes what is pending before close() resolves, and takes nothing after', async () => {
    const store = createHealthStore({ db, environment, gatherMs: 1_000 });
    const appended = store.append(batchOf(1), atOf(1));
    await store.close();
    await appended;
    assert.deepEqual(await stored(), expected([{ reports: batchOf(1), at: atOf(1) }]));
    await assert.rejects(store.append(batchOf(2), atOf(2)), /closed/);
  });

  it('counts each network at most its cap of sessions per release and hour, whichever instance a batch reaches', async () => {
    const [first, second] = [open(), open()];
    const canary = (outcome: Counted['outcome']): Counted => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome });
    const at = T0 + 5 * MINUTE_MS;
    // One network floods both instances at once; two others send a few failures each.
    const flood = Array.from({ length: 60 }, (_, n) => (n % 2 ? first : second).append([canary('loaded')], at + n, 'network-a'));
    const few = ['network-b', 'network-c'].flatMap((network) => Array.from({ length: 3 }, (_, n) => first.append([canary('fell-back')], at + n, network)));
    const counted = (await Promise.all([...flood, ...few])).map((reports) => reports.length);
    assert.equal(
      counted.slice(0, 60).reduce((a, b) => a + b, 0),
      NETWORK_RULES.sessionsPerHour,
    );
    assert.deepEqual(counted.slice(60), [1, 1, 1, 1, 1, 1]);
    const figures = await readFigures(db, environment, { now: NOW });
    const series = figures.series('remote-title', '1.4.0', 'canary');
    assert.equal(series?.totals.sessions, NETWORK_RULES.sessionsPerHour + 6);
    assert.equal(failingNetworks(series), 2);
    // Vitals-only reports have a cap of their own, and the next hour counts again.
    assert.equal((await first.append([{ remote: 'remote-title', release: '1.4.0', channel: 'canary', vitals: { lcp: 900 } }], at, 'network-a')).length, 1);
    assert.equal((await second.append([canary('loaded')], at + 60 * 60_000, 'network-a')).length, 1);
  });

  it('reads only the window ending now, and keeps each environment apart', async () => {
    const store = open();
    const old = { reports: batchOf(3), at: NOW - 61 * MINUTE_MS };
    const recent = { reports: batchOf(4), at: NOW - 2 * MINUTE_MS };
    await Promise.all([store.append(old.reports, old.at), store.append(recent.reports, recent.at)]);
    assert.deepEqual(await stored(), expected([recent]));
    assert.deepEqual(await stored(`${environment}-other`), []);
    // Pruning drops what is older than kept, nothing else.
    await pruneHealth(db, { keepMinutes: 60, now: NOW });
    const { rows } = await db.query<{ minute: string }>('SELECT DISTINCT minute FROM health_counts WHERE environment = $1', [environment]);
    assert.deepEqual(rows.map((row) => Number(row.minute)), [Math.floor(recent.at / MINUTE_MS)]);
  });
});
