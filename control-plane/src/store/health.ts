// Release health in the store: exact counts per environment, release, channel and minute
// (health_counts), the networks of failed sessions (health_failed_networks) and each network's
// hourly offer (health_network_counts). What the counts mean, and how the collector batches them,
// is control-plane/src/health/counts.ts; here are only the statements.
import type { Queryable } from './database.ts';

/** A metric of health_counts: `outcome:<outcome>` or `lcp:<bucket>`. */
export const OUTCOME = 'outcome:';
export const LCP = 'lcp:';

export interface CountRow {
  remote: string;
  release: string;
  channel: string;
  minute: number;
  metric: string;
  count: number;
}

export interface CapRow {
  hour: number;
  remote: string;
  release: string;
  channel: string;
  /** s: sessions; v: vitals-only reports. */
  kind: 's' | 'v';
  network: string;
  offered: number;
}

export interface FailedRow {
  minute: number;
  remote: string;
  release: string;
  channel: string;
  network: string;
  failures: number;
}

/** The key of one network's hourly offer, as claimCaps() answers by it. */
export const capRowKey = ({ hour, remote, release, channel, kind, network }: Omit<CapRow, 'offered' | 'hour'> & { hour: number | string }) =>
  `${hour}\n${remote}\n${release}\n${channel}\n${kind}\n${network}`;

// Rows go in one fixed order, the same in every instance: an INSERT … ON CONFLICT DO UPDATE locks
// the rows it meets in the order it meets them, and two instances' statements meeting the same
// rows in different orders deadlock, one of them failing with all its batches (503s under load).
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byKey = (a: CountRow, b: CountRow) =>
  a.minute - b.minute || compare(a.remote, b.remote) || compare(a.release, b.release) || compare(a.channel, b.channel) || compare(a.metric, b.metric);

/**
 * Adds the offered sessions to each network's hourly count (`rows`, by capRowKey) and returns how
 * many each key had offered before: one statement, in a fixed order, so instances never deadlock
 * and each sees the count the others left.
 */
export async function claimCaps(db: Queryable, environment: string, rows: Map<string, CapRow>): Promise<Map<string, number>> {
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
    const key = capRowKey(row);
    before.set(key, Number(row.offered) - (rows.get(key)?.offered ?? 0));
  }
  return before;
}

/** Adds counts and the failures' networks: one statement, stored together or not at all. */
export async function writeCounts(db: Queryable, environment: string, rows: Map<string, CountRow>, failed: Map<string, FailedRow>): Promise<void> {
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

/** An environment's counts from minute `from` on. */
export async function readCounts(db: Queryable, environment: string, from: number): Promise<CountRow[]> {
  const { rows } = await db.query<{ remote: string; release: string; channel: string; minute: string; metric: string; count: string }>(
    'SELECT remote, release, channel, minute, metric, count FROM health_counts WHERE environment = $1 AND minute >= $2',
    [environment, from],
  );
  return rows.map((row) => ({ ...row, minute: Number(row.minute), count: Number(row.count) }));
}

/** An environment's failures by network from minute `from` on. */
export async function readFailedNetworks(db: Queryable, environment: string, from: number): Promise<FailedRow[]> {
  const { rows } = await db.query<{ remote: string; release: string; channel: string; minute: string; network: string; failures: string }>(
    'SELECT remote, release, channel, minute, network, failures FROM health_failed_networks WHERE environment = $1 AND minute >= $2',
    [environment, from],
  );
  return rows.map((row) => ({ ...row, minute: Number(row.minute), failures: Number(row.failures) }));
}

/** Drops counts before minute `minute` and networks' offers before hour `hour`. */
export async function deleteHealthBefore(db: Queryable, { minute, hour }: { minute: number; hour: number }): Promise<void> {
  await db.query('DELETE FROM health_counts WHERE minute < $1', [minute]);
  await db.query('DELETE FROM health_failed_networks WHERE minute < $1', [minute]);
  await db.query('DELETE FROM health_network_counts WHERE hour < $1', [hour]);
}

/** How many distinct networks sent sessions of each release (key `remote release channel`) from hour `from` on. */
export async function countSessionNetworks(db: Queryable, environment: string, from: number): Promise<Map<string, number>> {
  const { rows } = await db.query<{ remote: string; release: string; channel: string; networks: string }>(
    `SELECT remote, release, channel, count(DISTINCT network) AS networks FROM health_network_counts
     WHERE environment = $1 AND hour >= $2 AND kind = 's' GROUP BY remote, release, channel`,
    [environment, from],
  );
  return new Map(rows.map(({ remote, release, channel, networks }) => [`${remote} ${release} ${channel}`, Number(networks)]));
}
