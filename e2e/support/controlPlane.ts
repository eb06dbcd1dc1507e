import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The store the running site uses (control-plane/src/store/), for specs that set up or clear a
// rollout environment of their own: the same connection the release and rollout commands find.

interface Pool {
  query(text: string, values?: unknown[]): Promise<{ rowCount?: number | null; rows?: unknown[] }>;
  end(): Promise<void>;
}
interface StoreSettings {
  deployDir: string;
}
interface DatabaseModule {
  readStoreSettings(env: NodeJS.ProcessEnv): StoreSettings;
  openDatabase(options: { store: StoreSettings; max?: number }): Promise<{ pool: Pool; close(): Promise<void> }>;
}

interface RolloutsModule {
  updateRollout(db: Pool, environment: string, change: (latest: unknown) => unknown, who: { actor: string; action: string; reason?: string }): Promise<unknown>;
}
interface EmbeddedModule {
  embeddedDir(deployDir: string): string;
  startEmbedded(deployDir: string): Promise<{ stop(): Promise<void> }>;
}

type StoreModule = DatabaseModule & RolloutsModule & EmbeddedModule;

// Imported as an ES module by its file's URL, never by a static import: Playwright compiles a
// spec's static imports to CommonJS and caches them (eslint.config.mjs, ROLLOUT_IN_SPECS).
const store = () => import(pathToFileURL(createRequire(__filename).resolve('@netnet/control-plane/store')).href) as Promise<StoreModule>;

/** Where the store is: read from this process's environment, the site's own (DATABASE_URL, NETNET_DEPLOY_DIR). */
const settingsOf = ({ readStoreSettings }: StoreModule) => readStoreSettings(process.env);

async function withStore<T>(work: (pool: Pool) => Promise<T>): Promise<T> {
  const module = await store();
  const database = await module.openDatabase({ store: settingsOf(module), max: 1 });
  try {
    return await work(database.pool);
  } finally {
    await database.close();
  }
}

/** Removes an environment's map, audit trail, release health and lease: the store as before the spec. */
export function forgetEnvironment(environment: string): Promise<void> {
  return withStore(async (pool) => {
    for (const table of ['qa_tokens', 'rollouts', 'audit', 'health_counts', 'guard_leases']) {
      await pool.query(`DELETE FROM ${table} WHERE environment = $1`, [environment]);
    }
  });
}

/** Unregisters releases whose files a spec removes, so a later run can publish the version afresh. */
export function forgetReleases(remote: string, versions: string[]): Promise<void> {
  return withStore(async (pool) => {
    await pool.query('DELETE FROM releases WHERE remote = $1 AND version = ANY($2)', [remote, versions]);
    // Their lists went with them; the files no other release holds go too, as retention does.
    await pool.query('DELETE FROM release_blobs AS blob WHERE NOT EXISTS (SELECT 1 FROM release_files AS file WHERE file.sha256 = blob.sha256)');
  });
}

/** Takes one file out of a release in the store (docs/store.md, "Release files"), as a damaged store would. */
export function loseStoredFile(remote: string, version: string, path: string): Promise<void> {
  return withStore(async (pool) => {
    const { rowCount } = await pool.query('DELETE FROM release_files WHERE remote = $1 AND version = $2 AND path = $3', [remote, version, path]);
    if (rowCount !== 1) throw new Error(`the store holds no ${path} of ${remote} ${version}`);
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

/**
 * Puts `map` back as an environment's map (null: none, served as the remotes' own builds), written
 * as every change is (a new version, an audit entry, a notification), so running instances take
 * it within a second. For an environment a running site serves: removing its row instead would
 * leave the instances holding the newer map they have (docs/store.md).
 */
export function restoreMap(environment: string, map: unknown): Promise<void> {
  return withStore(async (pool) => {
    const { updateRollout } = await store();
    const result = (await pool.query('SELECT map FROM rollouts WHERE environment = $1', [environment])) as { rows: { map: unknown }[] };
    const target = map ?? { remotes: {} };
    const current = JSON.stringify(result.rows[0]?.map ?? null);
    if (current === JSON.stringify(map) || current === JSON.stringify(target)) return;
    await updateRollout(pool, environment, () => structuredClone(target), { actor: 'e2e', action: 'restore', reason: 'a spec puts the map back as it found it' });
  });
}

export interface AuditEntry {
  map_version: number;
  actor: string;
  action: string;
  remote: string | null;
  reason: string | null;
}

/** An environment's audit trail from map version `since` on, oldest first: who changed the map, how and why. */
export function auditSince(environment: string, since: number): Promise<AuditEntry[]> {
  return withStore(async (pool) => {
    const result = (await pool.query(
      'SELECT map_version, actor, action, remote, reason FROM audit WHERE environment = $1 AND map_version > $2 ORDER BY id',
      [environment, since],
    )) as { rows: AuditEntry[] };
    return result.rows.map((row) => ({ ...row, map_version: Number(row.map_version) }));
  });
}

/** An environment's map version (0: none yet). */
export function mapVersion(environment: string): Promise<number> {
  return withStore(async (pool) => {
    const result = (await pool.query('SELECT version FROM rollouts WHERE environment = $1', [environment])) as { rows: { version: string }[] };
    return Number(result.rows[0]?.version ?? 0);
  });
}

/** The store is the embedded PostgreSQL (no DATABASE_URL): the one a spec may stop and start. */
export const storeIsEmbedded = (): boolean => !process.env.DATABASE_URL;

/**
 * Stops the embedded PostgreSQL as its own code stops it (pg_ctl stop -m fast, as its user):
 * every connection is cut and new ones are refused until startDatabase().
 */
export async function stopDatabase(): Promise<void> {
  const module = await store();
  const { deployDir } = settingsOf(module);
  // Finds the running server (starts none that runs already) and gives its stop().
  await (await module.startEmbedded(deployDir)).stop();
  // stop() swallows pg_ctl's errors: a server still running would make the spec prove nothing.
  const dir = module.embeddedDir(deployDir);
  if (existsSync(join(dir, 'postmaster.pid'))) throw new Error(`PostgreSQL in ${dir} did not stop`);
}

/** Starts the embedded PostgreSQL again, exactly as the site starts it, so the site's own shutdown stops it later. */
export async function startDatabase(): Promise<void> {
  const module = await store();
  await module.startEmbedded(settingsOf(module).deployDir);
}

/** The versions of a remote the store lists as published. */
export function releasesOf(remote: string): Promise<string[]> {
  return withStore(async (pool) => {
    const result = (await pool.query('SELECT version FROM releases WHERE remote = $1 ORDER BY version', [remote])) as { rows: { version: string }[] };
    return result.rows.map((row) => row.version);
  });
}

/** Removes a control-plane API token a spec made (names are never reused, so a revoked one would stay). */
export function forgetToken(name: string): Promise<void> {
  return withStore(async (pool) => {
    await pool.query('DELETE FROM api_tokens WHERE name = $1', [name]);
  });
}

/** One digest per table a release must never change by rendering: maps, releases, tokens and the audit trail. */
export function storeDigest(): Promise<Record<string, string>> {
  return withStore(async (pool) => {
    const digest: Record<string, string> = {};
    for (const table of ['rollouts', 'releases', 'api_tokens', 'audit']) {
      const result = (await pool.query(`SELECT count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM ${table} t`)) as {
        rows: { digest: string }[];
      };
      digest[table] = result.rows[0]!.digest;
    }
    return digest;
  });
}

/**
 * Resolves once the environment's guard has begun `passes` more passes: each pass starts by renewing
 * its lease (control-plane/src/store/lease.ts), so every new expiry is one more pass over what the
 * store holds by then. A spec waits on these instead of on a clock the guard may not keep.
 */
export function guardPasses(environment: string, passes: number, { timeout = 60_000 } = {}): Promise<void> {
  return withStore(async (pool) => {
    const expiry = async () => {
      const result = (await pool.query('SELECT expires_at::text AS at FROM guard_leases WHERE environment = $1', [environment])) as { rows: { at: string }[] };
      return result.rows[0]?.at ?? null;
    };
    const deadline = Date.now() + timeout;
    let last = await expiry();
    for (let seen = 0; seen < passes; ) {
      if (Date.now() > deadline) throw new Error(`the guard of ${environment} made ${seen} of ${passes} passes in ${timeout / 1000} s`);
      await new Promise((done) => setTimeout(done, 100));
      const now = await expiry();
      if (now !== null && now !== last) seen += 1;
      last = now;
    }
  });
}
