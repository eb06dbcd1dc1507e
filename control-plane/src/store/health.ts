// Release health in the store (health_counts): exact counts per environment, release, channel and
// minute, added by every instance's collector and read by the guard and `rollout status`.
//
// The collector answers 204 only once PostgreSQL holds the batch. Batches that arrive within a
// few milliseconds, or while a write is under way, are summed into one INSERT … ON CONFLICT DO
// UPDATE, so the database sees tens of writes a second however many beacons arrive; a write that
// fails rejects every batch in it and counts none of them (one statement: all or nothing).
import { createFigures, minuteOf, type Counted, type Figures, type MinuteJson } from '../health/figures.ts';
import { bucketOf } from '../health/histogram.ts';
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
  append(reports: Counted[], at: number): Promise<void>;
  close(): Promise<void>;
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

async function writeCounts(db: Queryable, environment: string, rows: Map<string, CountRow>) {
  const columns = { remote: [] as string[], release: [] as string[], channel: [] as string[], minute: [] as number[], metric: [] as string[], count: [] as number[] };
  for (const row of [...rows.values()].sort(byKey)) {
    columns.remote.push(row.remote);
    columns.release.push(row.release);
    columns.channel.push(row.channel);
    columns.minute.push(row.minute);
    columns.metric.push(row.metric);
    columns.count.push(row.count);
  }
  await db.query(
    `INSERT INTO health_counts (environment, remote, release, channel, minute, metric, count)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::bigint[])
     ON CONFLICT (environment, minute, remote, release, channel, metric)
     DO UPDATE SET count = health_counts.count + EXCLUDED.count`,
    [environment, columns.remote, columns.release, columns.channel, columns.minute, columns.metric, columns.count],
  );
}

/** The collector's store for one environment. `gatherMs`: how long a batch waits for others to share its write. */
export function createHealthStore({
  db,
  environment,
  gatherMs = 4,
  windowMinutes = 60,
  maxSeries,
}: {
  db: Queryable;
  environment: string;
  gatherMs?: number;
  windowMinutes?: number;
  maxSeries?: number;
}): HealthStore {
  const figures = createFigures({ windowMinutes, maxSeries });
  let pending: { reports: Counted[]; at: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> | null = null;
  let closed = false;

  async function flush() {
    timer = null;
    if (writing) return; // the write under way flushes again when it ends
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    const rows = new Map<string, CountRow>();
    for (const item of batch) addCounts(rows, item.reports, minuteOf(item.at));
    writing = writeCounts(db, environment, rows);
    try {
      await writing;
      for (const item of batch) {
        figures.record(item.reports, item.at);
        item.resolve();
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
    append(reports, at) {
      if (closed) return Promise.reject(new Error('the health store is closed'));
      return new Promise<void>((resolve, reject) => {
        pending.push({ reports, at, resolve, reject });
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
  type Counts = MinuteJson[1];
  const series = new Map<string, { remote: string; release: string; channel: string; minutes: Map<number, Counts> }>();
  for (const { remote, release, channel, minute, metric, count } of rows) {
    const key = `${remote}\n${release}\n${channel}`;
    let known = series.get(key);
    if (!known) series.set(key, (known = { remote, release, channel, minutes: new Map() }));
    const minutes = known.minutes;
    const at = Number(minute);
    let counts = minutes.get(at);
    if (!counts) minutes.set(at, (counts = { outcomes: {}, lcp: [] }));
    if (metric.startsWith(OUTCOME)) counts.outcomes[metric.slice(OUTCOME.length)] = Number(count);
    else if (metric.startsWith(LCP)) counts.lcp.push([Number(metric.slice(LCP.length)), Number(count)]);
  }
  const figures = createFigures({ windowMinutes, maxSeries: Infinity });
  figures.prune(now);
  figures.load({ series: [...series.values()].map((s) => ({ ...s, minutes: [...s.minutes] })) });
  return figures;
}

/** Drops counts older than `keepMinutes` (the guard's window is an hour; a day is kept for status). */
export async function pruneHealth(db: Queryable, { keepMinutes = 24 * 60, now = Date.now() }: { keepMinutes?: number; now?: number } = {}): Promise<void> {
  await db.query('DELETE FROM health_counts WHERE minute < $1', [minuteOf(now) - keepMinutes]);
}
