import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The store the running site uses (control-plane/src/store/), for specs that set up or clear a
// rollout environment of their own: the same connection the release and rollout commands find.

interface Pool {
  query(text: string, values?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
}
interface DatabaseModule {
  openDatabase(options?: { max?: number }): Promise<{ pool: Pool; close(): Promise<void> }>;
}

const root = join(__dirname, '..', '..');

async function withStore<T>(work: (pool: Pool) => Promise<T>): Promise<T> {
  const { openDatabase } = (await import(pathToFileURL(join(root, 'control-plane/src/store/database.ts')).href)) as DatabaseModule;
  const database = await openDatabase({ max: 1 });
  try {
    return await work(database.pool);
  } finally {
    await database.close();
  }
}

/** Removes an environment's map, audit trail, release health and lease: the store as before the spec. */
export function forgetEnvironment(environment: string): Promise<void> {
  return withStore(async (pool) => {
    for (const table of ['rollouts', 'audit', 'health_counts', 'guard_leases']) {
      await pool.query(`DELETE FROM ${table} WHERE environment = $1`, [environment]);
    }
  });
}

/** Unregisters releases whose files a spec removes, so a later run can publish the version afresh. */
export function forgetReleases(remote: string, versions: string[]): Promise<void> {
  return withStore(async (pool) => {
    await pool.query('DELETE FROM releases WHERE remote = $1 AND version = ANY($2)', [remote, versions]);
  });
}

/** Puts a map in the store as a hand-edited row would be, bypassing every check. */
export function writeRawMap(environment: string, json: string): Promise<void> {
  return withStore(async (pool) => {
    await pool.query('INSERT INTO rollouts (environment, version, map) VALUES ($1, 1, $2::jsonb)', [environment, json]);
  });
}

/** An environment's rollout map as the store holds it (null: nothing rolled out there). */
export function readMap<T>(environment: string): Promise<T | null> {
  return withStore(async (pool) => {
    const result = (await pool.query('SELECT map FROM rollouts WHERE environment = $1', [environment])) as { rows: { map: T }[] };
    return result.rows[0]?.map ?? null;
  });
}
