// Release health in the store (health_counts): exact counts per environment, release, channel and
// minute, added by every instance's collector and read by the guard and `rollout status`.
//
// The collector answers 204 only once PostgreSQL holds the batch. Batches that arrive within a
// few milliseconds, or while a write is under way, are summed into one INSERT … ON CONFLICT DO
// UPDATE, so the database sees tens of writes a second however many beacons arrive; a write that
// fails rejects every batch in it and counts none of them (one statement: all or nothing).
import { createFigures, isFailure, minuteOf, type Counted, type Figures, type MinuteJson } from '../health/figures.ts';
import { bucketOf } from '../health/histogram.ts';
import { NETWORK_RULES } from '../health/network.ts';
import type { Queryable } from './database.ts';

interface CountRow {
  remote: string;
  release: string;
  channel: string;
  minute: number;
  metric: string;
  count: number;
}

export interface HealthStore {
  /** What this instance recorded (its series bound, its metrics); the guard reads the store's. */
  figures: Figures;
  /**
   * Adds a batch sent from `network` (networkTag() of control-plane/src/health/network.ts) once the
   * store holds it; resolves with the reports counted: those within the network's hourly cap of
   * sessions (and, apart, of vitals-only reports) per release, shared by every instance.
   */
  append(reports: Counted[], at: number, network?: string): Promise<Counted[]>;
  close(): Promise<void>;
}

interface CapRow {
  hour: number;
  remote: string;
  release: string;
  channel: string;
  kind: 's' | 'v';
  network: string;
  offered: number;
}

const hourOf = (at: number) => Math.floor(at / NETWORK_RULES.windowMs);
const capKey = (hour: number, { remote, release, channel, outcome }: Counted, network: string) =>
  `${hour}\n${remote}\n${release}\n${channel}\n${outcome === undefined ? 'v' : 's'}\n${network}`;

/**
 * Takes the offered sessions from each network's hourly count (`rows`, by capKey) and returns how
 * many each key had offered before: one statement, in a fixed order, so instances never deadlock
 * and each sees the count the others left.
 */
async function claimCaps(db: Queryable, environment: string, rows: Map<string, CapRow>): Promise<Map<string, number>> {
  const sorted = [...rows].sort(([a], [b]) => compare(a, b));
  const column = <K extends keyof CapRow>(name: K) => sorted.map(([, row]) => row[name]);
  const { rows: claimed } = await db.query<Omit<CapRow, 'offered' | 'hour'> & { hour: string; offered: string }>(
    `INSERT INTO health_network_counts (environment, hour, remote, release, channel, kind, network, offered)
     SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[])
     ON CONFLICT (environment, hour, remote, release, channel, kind, network)
     DO UPDATE SET offered = health_network_counts.offered + EXCLUDED.offered
     RETURNING hour, remote, release, channel, kind, network, offered`,
    [environment, column('hour'), column('remote'), column('release'), column('channel'), column('kind'), column('network'), column('offered')],
  );
  const before = new Map<string, number>();
  for (const row of claimed) {
    const key = `${row.hour}\n${row.remote}\n${row.release}\n${row.channel}\n${row.kind}\n${row.network}`;
    before.set(key, Number(row.offered) - (rows.get(key)?.offered ?? 0));
  }
  return before;
}

const OUTCOME = 'outcome:';
const LCP = 'lcp:';

/** The rows one batch of reports adds: Map<key, { remote, release, channel, minute, metric, count }>. */
function addCounts(rows: Map<string, CountRow>, reports: Counted[], minute: number) {
  const add = (remote: string, release: string, channel: string, metric: string) => {
    const key = `${remote}\n${release}\n${channel}\n${minute}\n${metric}`;
    const row = rows.get(key);
    if (row) row.count += 1;
    else rows.set(key, { remote, release, channel, minute, metric, count: 1 });
  };
  for (const { remote, release, channel, outcome, vitals } of reports) {
    // Vitals without an outcome are samples of a session already counted.
    if (outcome !== undefined) add(remote, release, channel, `${OUTCOME}${outcome}`);
    if (vitals?.lcp !== undefined) add(remote, release, channel, `${LCP}${bucketOf(vitals.lcp)}`);
  }
}

// Rows go in one fixed order, the same in every instance: an INSERT … ON CONFLICT DO UPDATE locks
// the rows it meets in the order it meets them, and two instances' statements meeting the same
// rows in different orders deadlock, one of them failing with all its batches (503s under load).
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byKey = (a: CountRow, b: CountRow) =>
  a.minute - b.minute || compare(a.remote, b.remote) || compare(a.release, b.release) || compare(a.channel, b.channel) || compare(a.metric, b.metric);

interface FailedRow {
  minute: number;
  remote: string;
  release: string;
  channel: string;
  network: string;
  failures: number;
}

async function writeCounts(db: Queryable, environment: string, rows: Map<string, CountRow>, failed: Map<string, FailedRow>) {
  const failedRows = [...failed].sort(([a], [b]) => compare(a, b)).map(([, row]) => row);
  const columns = { remote: [] as string[], release: [] as string[], channel: [] as string[], minute: [] as number[], metric: [] as string[], count: [] as number[] };
  for (const row of [...rows.values()].sort(byKey)) {
    columns.remote.push(row.remote);
    columns.release.push(row.release);
    columns.channel.push(row.channel);
    columns.minute.push(row.minute);
    columns.metric.push(row.metric);
    columns.count.push(row.count);
  }
  // One statement: the counts and the failures' networks are stored together or not at all.
  await db.query(
    `WITH failed AS (
       INSERT INTO health_failed_networks (environment, minute, remote, release, channel, network, failures)
       SELECT $1, * FROM unnest($8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[], $13::bigint[])
       ON CONFLICT (environment, minute, remote, release, channel, network)
       DO UPDATE SET failures = health_failed_networks.failures + EXCLUDED.failures
     )
     INSERT INTO health_counts (environment, remote, release, channel, minute, metric, count)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::bigint[])
     ON CONFLICT (environment, minute, remote, release, channel, metric)
     DO UPDATE SET count = health_counts.count + EXCLUDED.count`,
    [
      environment,
      columns.remote,
      columns.release,
      columns.channel,
      columns.minute,
      columns.metric,
      columns.count,
      failedRows.map((row) => row.minute),
      failedRows.map((row) => row.remote),
      failedRows.map((row) => row.release),
      failedRows.map((row) => row.channel),
      failedRows.map((row) => row.network),
      failedRows.map((row) => row.failures),
    ],
  );
}

/** The collector's store for one environment. `gatherMs`: how long a batch waits for others to share its write. */
export function createHealthStore({
  db,
  environment,
  gatherMs = 4,
  windowMinutes = 60,
  maxSeries,
  networkCap = NETWORK_RULES.sessionsPerHour,
}: {
  db: Queryable;
  environment: string;
  gatherMs?: number;
  windowMinutes?: number;
  maxSeries?: number;
  /** Sessions (and vitals-only reports, apart) per network, release and hour. */
  networkCap?: number;
}): HealthStore {
  const figures = createFigures({ windowMinutes, maxSeries });
  type Pending = { reports: Counted[]; at: number; network: string | undefined; resolve: (counted: Counted[]) => void; reject: (error: unknown) => void };
  let pending: Pending[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> | null = null;
  let closed = false;

  async function flush() {
    timer = null;
    if (writing) return; // the write under way flushes again when it ends
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    const counted = new Map<Pending, Counted[]>();
    writing = (async () => {
      // The networks' caps first: what is over them is not counted (nor stored) at all.
      const offers = new Map<string, CapRow>();
      for (const { reports, at, network } of batch) {
        if (!network) continue;
        for (const report of reports) {
          const key = capKey(hourOf(at), report, network);
          const offer = offers.get(key);
          if (offer) offer.offered += 1;
          else {
            const { remote, release, channel, outcome } = report;
            offers.set(key, { hour: hourOf(at), remote, release, channel, kind: outcome === undefined ? 'v' : 's', network, offered: 1 });
          }
        }
      }
      const before = offers.size > 0 ? await claimCaps(db, environment, offers) : new Map<string, number>();
      const rows = new Map<string, CountRow>();
      const failed = new Map<string, FailedRow>();
      for (const item of batch) {
        const { network, at } = item;
        const kept = item.reports.filter((report) => {
          if (!network) return true;
          const key = capKey(hourOf(at), report, network);
          const offered = before.get(key) ?? 0;
          before.set(key, offered + 1);
          return offered < networkCap;
        });
        counted.set(item, kept);
        addCounts(rows, kept, minuteOf(at));
        for (const { remote, release, channel, outcome } of kept) {
          if (!network || outcome === undefined || !isFailure(outcome)) continue;
          const minute = minuteOf(at);
          const key = `${minute}\n${remote}\n${release}\n${channel}\n${network}`;
          const row = failed.get(key);
          if (row) row.failures += 1;
          else failed.set(key, { minute, remote, release, channel, network, failures: 1 });
        }
      }
      if (rows.size > 0) await writeCounts(db, environment, rows, failed);
    })();
    try {
      await writing;
      for (const item of batch) {
        const kept = counted.get(item) ?? [];
        figures.record(kept, item.at, item.network);
        item.resolve(kept);
      }
    } catch (error) {
      for (const item of batch) item.reject(error);
    } finally {
      writing = null;
      if (pending.length > 0 && !timer) timer = setTimeout(flush, 0);
    }
  }

  return {
    figures,
    append(reports, at, network) {
      if (closed) return Promise.reject(new Error('the health store is closed'));
      return new Promise<Counted[]>((resolve, reject) => {
        pending.push({ reports, at, network, resolve, reject });
        if (!timer && !writing) timer = setTimeout(flush, gatherMs);
      });
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await writing?.catch(() => {});
      await flush();
    },
  };
}

/**
 * The figures of an environment over the window ending `now`, as the store holds them from every
 * instance (createFigures() of control-plane/src/health/figures.ts, loaded).
 */
export async function readFigures(db: Queryable, environment: string, { windowMinutes = 60, now = Date.now() }: { windowMinutes?: number; now?: number } = {}): Promise<Figures> {
  const from = minuteOf(now) - windowMinutes + 1;
  const { rows } = await db.query<{ remote: string; release: string; channel: string; minute: string; metric: string; count: string }>(
    'SELECT remote, release, channel, minute, metric, count FROM health_counts WHERE environment = $1 AND minute >= $2',
    [environment, from],
  );
  type Counts = MinuteJson[1] & { failedNetworks: [string, number][] };
  const series = new Map<string, { remote: string; release: string; channel: string; minutes: Map<number, Counts> }>();
  for (const { remote, release, channel, minute, metric, count } of rows) {
    const key = `${remote}\n${release}\n${channel}`;
    let known = series.get(key);
    if (!known) series.set(key, (known = { remote, release, channel, minutes: new Map() }));
    const minutes = known.minutes;
    const at = Number(minute);
    let counts = minutes.get(at);
    if (!counts) minutes.set(at, (counts = { outcomes: {}, lcp: [], failedNetworks: [] }));
    if (metric.startsWith(OUTCOME)) counts.outcomes[metric.slice(OUTCOME.length)] = Number(count);
    else if (metric.startsWith(LCP)) counts.lcp.push([Number(metric.slice(LCP.length)), Number(count)]);
  }
  const { rows: failed } = await db.query<{ remote: string; release: string; channel: string; minute: string; network: string; failures: string }>(
    'SELECT remote, release, channel, minute, network, failures FROM health_failed_networks WHERE environment = $1 AND minute >= $2',
    [environment, from],
  );
  for (const { remote, release, channel, minute, network, failures } of failed) {
    series.get(`${remote}\n${release}\n${channel}`)?.minutes.get(Number(minute))?.failedNetworks.push([network, Number(failures)]);
  }
  const figures = createFigures({ windowMinutes, maxSeries: Infinity });
  figures.prune(now);
  figures.load({ series: [...series.values()].map((s) => ({ ...s, minutes: [...s.minutes] })) });
  return figures;
}

/** Drops counts older than `keepMinutes` (the guard's window is an hour; a day is kept for status). */
export async function pruneHealth(db: Queryable, { keepMinutes = 24 * 60, now = Date.now() }: { keepMinutes?: number; now?: number } = {}): Promise<void> {
  await db.query('DELETE FROM health_counts WHERE minute < $1', [minuteOf(now) - keepMinutes]);
  await db.query('DELETE FROM health_failed_networks WHERE minute < $1', [minuteOf(now) - keepMinutes]);
  await db.query('DELETE FROM health_network_counts WHERE hour < $1', [hourOf(now) - Math.ceil((keepMinutes * 60_000) / NETWORK_RULES.windowMs)]);
}

/** How many distinct networks sent sessions of each release (key `remote release channel`) in this hour and the one before. */
export async function readSessionNetworks(db: Queryable, environment: string, { now = Date.now() }: { now?: number } = {}): Promise<Map<string, number>> {
  const { rows } = await db.query<{ remote: string; release: string; channel: string; networks: string }>(
    `SELECT remote, release, channel, count(DISTINCT network) AS networks FROM health_network_counts
     WHERE environment = $1 AND hour >= $2 AND kind = 's' GROUP BY remote, release, channel`,
    [environment, hourOf(now) - 1],
  );
  return new Map(rows.map(({ remote, release, channel, networks }) => [`${remote} ${release} ${channel}`, Number(networks)]));
}
