// The one store of what the site shares (docs/architecture.md, "The store"): the PostgreSQL at
// DATABASE_URL, else the embedded one (./embedded.ts). Opening it applies the migrations the
// database does not have yet (control-plane/migrations/NNN_name.sql, in order, each in its own
// transaction under an advisory lock, so several instances starting at once apply each once).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { messageOf } from '../errors.ts';
import { startEmbedded, type EmbeddedDatabase } from './embedded.ts';

/** What reads and writes of the store go through: a pool, or one of its clients inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}
/** A pool, for what needs a connection of its own (a transaction, the migrations). */
export interface Store extends Queryable {
  connect(): Promise<pg.PoolClient>;
}

export interface Migration {
  id: string;
  sql: string;
}

export interface Database {
  pool: pg.Pool;
  config: pg.ClientConfig;
  embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
}

const MIGRATIONS = fileURLToPath(new URL('../../migrations/', import.meta.url));
const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;
// Any number no other advisory lock of this database uses: "migrating the control plane".
const MIGRATION_LOCK = 0x6e65746e;

/** The migrations in the repo, oldest first: [{ id: '001_control_plane', sql }]. */
export function migrations(dir = MIGRATIONS): Migration[] {
  return readdirSync(dir)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort()
    .map((name) => ({ id: name.replace(/\.sql$/, ''), sql: readFileSync(`${dir}/${name}`, 'utf8') }));
}

/** Applies what `pool`'s database lacks; returns the ids applied now. */
export async function migrate(pool: Store, list = migrations()): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((row) => row.id));
    for (const { id, sql } of list) {
      if (done.has(id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [id]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${id} failed: ${messageOf(error)}`);
      }
      applied.push(id);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  return applied;
}

/** Runs `work(client)` in one transaction; rolls back if it throws. */
export async function transaction<T>(pool: Store, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Where the store is, as `pg` takes it: DATABASE_URL, else the embedded server (started if need be). */
async function databaseConfig(env = process.env): Promise<{ config: pg.ClientConfig; embedded: EmbeddedDatabase | null }> {
  if (env.DATABASE_URL) return { config: { connectionString: env.DATABASE_URL }, embedded: null };
  const embedded = await startEmbedded(env);
  return { config: embedded.config, embedded };
}

/** Opens the store, migrated. `max`: connections in the pool. */
export async function openDatabase({ env = process.env, max = 10 }: { env?: NodeJS.ProcessEnv; max?: number } = {}): Promise<Database> {
  const { config, embedded } = await databaseConfig(env);
  const pool = new pg.Pool({
    ...config,
    max,
    // A database that is away or paused answers nothing: give up after a few seconds rather
    // than hold a member's request or a beacon (docs/architecture.md, "The store").
    connectionTimeoutMillis: 3_000,
    query_timeout: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'netnet',
  });
  // An idle connection the server dropped (a restart): the pool replaces it on the next query.
  pool.on('error', () => {});
  await migrate(pool);
  return { pool, config, embedded, close: () => pool.end() };
}
