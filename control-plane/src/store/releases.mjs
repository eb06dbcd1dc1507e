// The published releases the store knows, with the hashes of their entry files
// (control-plane/src/deploy/integrity.mjs). A release's files live in the origin folder that the
// front door serves (deploy/<remote>/<version>/); the store says which of them exist for the map.
import { entryIntegrity } from '../deploy/integrity.mjs';
import { compareVersions, publishedVersions, releaseDir } from '../deploy/tree.mjs';

export const RELEASES_CHANNEL = 'netnet_releases';

/** Registers a published release (again: nothing changes, a version is immutable). */
export async function registerRelease(db, remote, version, integrity) {
  const { rowCount } = await db.query(
    'INSERT INTO releases (remote, version, integrity) VALUES ($1, $2, $3::jsonb) ON CONFLICT (remote, version) DO NOTHING',
    [remote, version, integrity ? JSON.stringify(integrity) : null],
  );
  if (rowCount > 0) await db.query('SELECT pg_notify($1, $2)', [RELEASES_CHANNEL, `${remote} ${version}`]);
  return rowCount > 0;
}

/** Every release, by remote, oldest version first: Map<remote, { version, integrity }[]>. */
export async function listReleases(db) {
  const { rows } = await db.query('SELECT remote, version, integrity FROM releases');
  const byRemote = new Map();
  for (const { remote, version, integrity } of rows) {
    if (!byRemote.has(remote)) byRemote.set(remote, []);
    byRemote.get(remote).push({ version, integrity });
  }
  for (const list of byRemote.values()) list.sort((a, b) => compareVersions(a.version, b.version));
  return byRemote;
}

/**
 * Registers the releases found in the origin folder that the store does not list yet (published
 * before the store existed, or by a copy of the folder); returns how many.
 */
export async function registerPublished(db, remotes, env = process.env) {
  let added = 0;
  for (const remote of remotes) {
    for (const version of publishedVersions(remote, env)) {
      if (await registerRelease(db, remote, version, entryIntegrity(releaseDir(remote, version, env)))) added += 1;
    }
  }
  return added;
}
