// Release health as the store keeps it (control-plane/src/store/health.ts): exact counts per
// environment, release, channel and minute, added by every instance's collector and read by the
// guard and `rollout status`.
//
// The collector answers 204 only once PostgreSQL holds the batch. Batches that arrive within a
// few milliseconds, or while a write is under way, are summed into one INSERT … ON CONFLICT DO
// UPDATE, so the database sees tens of writes a second however many beacons arrive; a write that
// fails rejects every batch in it and counts none of them (one statement: all or nothing).
import type { Queryable } from '../store/database.ts';
import {
  capRowKey,
  claimCaps,
  countSessionNetworks,
  deleteHealthBefore,
  LCP,
  OUTCOME,
  readCounts,
  readFailedNetworks,
  writeCounts,
  type CapRow,
  type CountRow,
  type FailedRow,
} from '../store/health.ts';
import { createFigures, isFailure, minuteOf, type Counted, type Figures, type MinuteJson } from './figures.ts';
import { bucketOf } from './histogram.ts';
import { NETWORK_RULES } from './network.ts';

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

const hourOf = (at: number) => Math.floor(at / NETWORK_RULES.windowMs);
const capKey = (hour: number, { remote, release, channel, outcome }: Counted, network: string) =>
  capRowKey({ hour, remote, release, channel, kind: outcome === undefined ? 'v' : 's', network });

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
  const rows = await readCounts(db, environment, from);
  type Counts = MinuteJson[1] & { failedNetworks: [string, number][] };
  const series = new Map<string, { remote: string; release: string; channel: string; minutes: Map<number, Counts> }>();
  for (const { remote, release, channel, minute, metric, count } of rows) {
    const key = `${remote}\n${release}\n${channel}`;
    let known = series.get(key);
    if (!known) series.set(key, (known = { remote, release, channel, minutes: new Map() }));
    const minutes = known.minutes;
    let counts = minutes.get(minute);
    if (!counts) minutes.set(minute, (counts = { outcomes: {}, lcp: [], failedNetworks: [] }));
    if (metric.startsWith(OUTCOME)) counts.outcomes[metric.slice(OUTCOME.length)] = count;
    else if (metric.startsWith(LCP)) counts.lcp.push([Number(metric.slice(LCP.length)), count]);
  }
  const failed = await readFailedNetworks(db, environment, from);
  for (const { remote, release, channel, minute, network, failures } of failed) {
    series.get(`${remote}\n${release}\n${channel}`)?.minutes.get(minute)?.failedNetworks.push([network, failures]);
  }
  const figures = createFigures({ windowMinutes, maxSeries: Infinity });
  figures.prune(now);
  figures.load({ series: [...series.values()].map((s) => ({ ...s, minutes: [...s.minutes] })) });
  return figures;
}

/** Drops counts older than `keepMinutes` (the guard's window is an hour; a day is kept for status). */
export async function pruneHealth(db: Queryable, { keepMinutes = 24 * 60, now = Date.now() }: { keepMinutes?: number; now?: number } = {}): Promise<void> {
  await deleteHealthBefore(db, { minute: minuteOf(now) - keepMinutes, hour: hourOf(now) - Math.ceil((keepMinutes * 60_000) / NETWORK_RULES.windowMs) });
}

/** How many distinct networks sent sessions of each release (key `remote release channel`) in this hour and the one before. */
export function readSessionNetworks(db: Queryable, environment: string, { now = Date.now() }: { now?: number } = {}): Promise<Map<string, number>> {
  return countSessionNetworks(db, environment, hourOf(now) - 1);
}
