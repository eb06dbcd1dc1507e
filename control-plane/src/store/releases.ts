// The published releases the store knows, with the hashes of their entry files
// (control-plane/src/releases/integrity.ts), and their files (./releaseFiles.ts): the releases
// origin serves them from here, through each instance's working copy.
import { transaction, type Queryable, type Store } from './database.ts';
import { compareVersions } from '../names.ts';
import { servedFiles, storedFileHashes, storeReleaseFiles } from './releaseFiles.ts';

/** A release's subresource integrity: file (relative to its release) → `sha384-…`. */
export type Integrity = Record<string, string>;

/** A release the store lists: its version and the hashes of its entry files (null: published without a record). */
export interface KnownRelease {
  version: string;
  integrity: Integrity | null;
}

/** Every release the store lists, by remote, oldest version first. */
export type Releases = Map<string, KnownRelease[]>;

export const RELEASES_CHANNEL = 'netnet_releases';

/**
 * Registers a published release (again: nothing changes, a version is immutable). `publishedBy`:
 * the API's token (`token:<name>`); without it the audit row names the session's actor.
 */
export async function registerRelease(db: Queryable, remote: string, version: string, integrity: Integrity | null, publishedBy?: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO releases (remote, version, integrity, published_by) VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT (remote, version) DO NOTHING',
    [remote, version, integrity ? JSON.stringify(integrity) : null, publishedBy ?? null],
  );
  const added = (rowCount ?? 0) > 0;
  if (added) await db.query('SELECT pg_notify($1, $2)', [RELEASES_CHANNEL, `${remote} ${version}`]);
  return added;
}

/**
 * Publishes the release folder `dir` as `remote` `version`: its row and its files in one
 * transaction, so a publish killed halfway leaves nothing. True when it was added; false when the
 * store listed it already, which then holds its files too (a release registered before releases'
 * files lived in the store gets them now). Whether an existing release has the same files is the
 * caller's to check first (storedFileHashes).
 */
export async function publishRelease(
  pool: Store,
  { remote, version, integrity, dir, publishedBy }: { remote: string; version: string; integrity: Integrity | null; dir: string; publishedBy?: string },
): Promise<boolean> {
  // Two publishes of one version at once: the second waits for the first's row, then finds it.
  return transaction(pool, async (client) => {
    const added = await registerRelease(client, remote, version, integrity, publishedBy);
    if (added || (await storedFileHashes(client, remote, version)).size === 0) await storeReleaseFiles(client, remote, version, dir, servedFiles(dir));
    return added;
  });
}

/** Every release, by remote, oldest version first: Map<remote, { version, integrity }[]>. */
export async function listReleases(db: Queryable): Promise<Releases> {
  const { rows } = await db.query<{ remote: string } & KnownRelease>('SELECT remote, version, integrity FROM releases');
  const byRemote: Releases = new Map();
  for (const { remote, version, integrity } of rows) {
    const list = byRemote.get(remote) ?? [];
    if (list.length === 0) byRemote.set(remote, list);
    list.push({ version, integrity });
  }
  for (const list of byRemote.values()) list.sort((a, b) => compareVersions(a.version, b.version));
  return byRemote;
}

/** When each listed release was published. */
export async function publishedTimes(db: Queryable): Promise<{ remote: string; version: string; publishedAt: Date }[]> {
  const { rows } = await db.query<{ remote: string; version: string; published_at: Date }>('SELECT remote, version, published_at FROM releases');
  return rows.map(({ remote, version, published_at }) => ({ remote, version, publishedAt: published_at }));
}

/** Takes a release off the list, and off every instance's (NOTIFY). */
export async function unregisterRelease(db: Queryable, remote: string, version: string): Promise<void> {
  await db.query('DELETE FROM releases WHERE remote = $1 AND version = $2', [remote, version]);
  await db.query('SELECT pg_notify($1, $2)', [RELEASES_CHANNEL, `${remote} ${version} removed`]);
}
