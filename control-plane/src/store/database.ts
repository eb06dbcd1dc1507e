// The one store of what the site shares (docs/store.md): the PostgreSQL at
// DATABASE_URL, else the embedded one (./embedded.ts). Opening it applies the migrations the
// database does not have yet (control-plane/migrations/NNN_name.sql, in order, each in its own
// transaction under an advisory lock, so several instances starting at once apply each once) as
// the owner, then connects as the caller's role (./roles.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import site from '@netnet/site';
import { readConfig, variable } from '@netnet/server-kit';
import { z } from 'zod';
import { messageOf } from '../errors.ts';
import { startEmbedded, type EmbeddedDatabase } from './embedded.ts';
import { actorOption, ROLE_NAMES, ROLE_URLS, type Role } from './roles.ts';

/**
 * Where the store is, as every process that opens it reads it: the owner's login, else the
 * embedded server in the deploy folder. A process also reads its role's own login
 * (ROLE_DATABASE_VARIABLES).
 */
export const STORE_VARIABLES = {
  databaseUrl: variable(
    'DATABASE_URL',
    z.string().optional(),
    "the PostgreSQL the site shares, its owner's login (docs/store.md); unset: the embedded one in the deploy folder, started by the first command that needs it",
  ),
  ...site.DEPLOY_DIR_VARIABLES,
};

const roleLogin = (role: Exclude<Role, 'owner'>, whose: string) => ({
  roleDatabaseUrl: variable(ROLE_URLS[role], z.string().optional(), `with DATABASE_URL: ${whose} own login, as its role (docs/store.md, "Roles"); unset: DATABASE_URL's`),
});

/** Each role's own login, read by the processes that open the store as that role. */
export const ROLE_DATABASE_VARIABLES = {
  instance: roleLogin('instance', "the shell instances'"),
  api: roleLogin('api', "the control-plane API's"),
  cli: roleLogin('cli', "the commands' (the guard's, and npm start's as it registers releases published before the store knew them)"),
};

/** Where a process finds the store (STORE_VARIABLES, and its role's ROLE_DATABASE_VARIABLES). */
export interface StoreSettings {
  databaseUrl?: string | undefined;
  /** The opening role's own login. */
  roleDatabaseUrl?: string | undefined;
  deployDir: string;
}

/** The store's settings for `role` read from `env`: for the tools and tests that open it outside a process's config. */
export const readStoreSettings = (env: NodeJS.ProcessEnv, role: Role = 'owner'): StoreSettings =>
  readConfig(role === 'owner' ? STORE_VARIABLES : { ...STORE_VARIABLES, ...ROLE_DATABASE_VARIABLES[role] }, env);

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
  /** Whose rights the pool has. */
  role: Role;
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

/** The migrations `db` lacks, read without writing (a role that may not migrate may still ask). */
async function pendingMigrations(db: Queryable, list = migrations()): Promise<string[]> {
  const { rows } = await db.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  if (!rows[0]?.present) return list.map(({ id }) => id);
  const done = new Set((await db.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((row) => row.id));
  return list.map(({ id }) => id).filter((id) => !done.has(id));
}

interface Where {
  /** The role's connection. */
  config: pg.ClientConfig;
  /** The owner's, which migrates; null: this process has none (a role's own DATABASE_URL_* alone). */
  owner: pg.ClientConfig | null;
  embedded: EmbeddedDatabase | null;
}

/**
 * Where the store is, as `pg` takes it: DATABASE_URL (the owner's login), with a role's own
 * DATABASE_URL_<ROLE> when set; else the embedded server (started if need be), where each role
 * logs in by name (peer: only the server's OS user and root reach its socket).
 */
async function databaseConfig({ databaseUrl, roleDatabaseUrl, deployDir }: StoreSettings, role: Role): Promise<Where> {
  const roleUrl = role === 'owner' ? undefined : roleDatabaseUrl;
  if (databaseUrl || roleUrl) {
    const owner = databaseUrl ? { connectionString: databaseUrl } : null;
    return { config: roleUrl ? { connectionString: roleUrl } : (owner as pg.ClientConfig), owner, embedded: null };
  }
  const embedded = await startEmbedded(deployDir);
  return { config: role === 'owner' ? embedded.config : { ...embedded.config, user: ROLE_NAMES[role] }, owner: embedded.config, embedded };
}

const poolOf = (config: pg.ClientConfig, max: number, actor: string | undefined) => {
  const pool = new pg.Pool({
    ...config,
    max,
    // A database that is away or paused answers nothing: give up after a few seconds rather
    // than hold a member's request or a beacon (docs/store.md).
    connectionTimeoutMillis: 3_000,
    query_timeout: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'netnet',
    ...(actor && { options: actorOption(actor) }),
  });
  // An idle connection the server dropped (a restart): the pool replaces it on the next query.
  pool.on('error', () => {});
  return pool;
};

/**
 * The embedded store's roles may log in (peer, as its pg_hba.conf says); made so once, by the
 * owner, under the migrations' lock (two processes altering a role at once: one fails).
 */
async function letRolesLogIn(owner: Store) {
  await transaction(owner, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const { rows } = await client.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE rolname = ANY($1) AND NOT rolcanlogin', [Object.values(ROLE_NAMES)]);
    for (const { rolname } of rows) await client.query(`ALTER ROLE ${pg.escapeIdentifier(rolname)} LOGIN`);
  });
}

/**
 * Opens the store `store` says where to find, migrated, as `role` (the owner by default: tests and
 * scripts that set a store up). `max`: connections in the pool; `actor`: who the audit trail names
 * for this process's changes when a change names no one itself (`user@host` for a command).
 */
export async function openDatabase({
  store,
  max = 10,
  role = 'owner',
  actor,
}: {
  store: StoreSettings;
  max?: number;
  role?: Role;
  actor?: string | undefined;
}): Promise<Database> {
  const { config, owner, embedded } = await databaseConfig(store, role);
  const pool = poolOf(config, max, actor);
  try {
    if (owner === config) {
      await migrate(pool);
      if (embedded) await letRolesLogIn(pool);
    } else if (owner) {
      const migrator = poolOf(owner, 1, undefined);
      try {
        await migrate(migrator);
        if (embedded) await letRolesLogIn(migrator);
      } finally {
        await migrator.end();
      }
    } else {
      const pending = await pendingMigrations(pool);
      if (pending.length) {
        throw new Error(`the store lacks migration(s) ${pending.join(', ')}: open it once with the owner's DATABASE_URL (docs/store.md, "Migrations")`);
      }
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  // A role without its own login (DATABASE_URL alone) works with the owner's rights.
  return { pool, config, embedded, role: config === owner ? 'owner' : role, close: () => pool.end() };
}
