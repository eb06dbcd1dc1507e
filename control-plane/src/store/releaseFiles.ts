// Releases' files in the store (docs/store.md, "Release files"): each file once by its SHA-256,
// a release the list of its files. The store is where a release lives; a process's working folder
// (NETNET_DEPLOY_DIR) is only a copy of the releases it served or published, which it makes again
// from here whenever it lacks one (materializeRelease), so deleting it changes nothing.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Queryable } from './database.ts';

/** Every regular file under `dir` (relative, `/`-separated), sorted. */
export function releaseFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath ?? entry.path, entry.name)).split(sep).join('/'))
    .sort();
}

/** The files of a release folder the origin serves: every regular file but dotfiles (never served). */
export const servedFiles = (dir: string): string[] => releaseFiles(dir).filter((path) => !path.split('/').some((segment) => segment.startsWith('.')));

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

/**
 * Stores the files of the release folder `dir` (paths relative to it, `/`-separated) as the files
 * of `remote` `version`. Run inside the transaction that registers the release: its row and its
 * files are published together or not at all. A file already held (by this or another release) is
 * not stored again.
 */
export async function storeReleaseFiles(client: Queryable, remote: string, version: string, dir: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const body = readFileSync(join(dir, path));
    const hash = sha256(body);
    // Held already: a cheap primary-key probe instead of sending the bytes again.
    const { rowCount } = await client.query('SELECT 1 FROM release_blobs WHERE sha256 = $1', [hash]);
    if (!rowCount) await client.query('INSERT INTO release_blobs (sha256, body) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING', [hash, body]);
    await client.query('INSERT INTO release_files (remote, version, path, sha256) VALUES ($1, $2, $3, $4)', [remote, version, path, hash]);
  }
}

/** The SHA-256 of each file of a release, by path; empty for a release the store holds no files of. */
export async function storedFileHashes(db: Queryable, remote: string, version: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ path: string; sha256: string }>('SELECT path, sha256 FROM release_files WHERE remote = $1 AND version = $2', [remote, version]);
  return new Map(rows.map((row) => [row.path, row.sha256]));
}

/** The SHA-256 of each file under `dir`, by path: what storedFileHashes gives once they are stored. */
export const folderFileHashes = (dir: string, paths: readonly string[]): Map<string, string> =>
  new Map(paths.map((path) => [path, sha256(readFileSync(join(dir, path)))]));

/** Deletes the files no release holds any more (after a release was removed); returns how many. */
export async function dropUnheldFiles(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM release_blobs AS blob WHERE NOT EXISTS (SELECT 1 FROM release_files AS file WHERE file.sha256 = blob.sha256)');
  return rowCount ?? 0;
}

/** How many bytes the store holds for a release's files, and how many of them no other release shares. */
export async function storedSize(db: Queryable, remote: string, version: string): Promise<{ files: number; bytes: number; ownBytes: number }> {
  const { rows } = await db.query<{ files: string; bytes: string | null; own: string | null }>(
    `SELECT count(*) AS files, sum(octet_length(blob.body)) AS bytes,
            sum(octet_length(blob.body)) FILTER (WHERE NOT EXISTS (
              SELECT 1 FROM release_files AS other WHERE other.sha256 = file.sha256 AND (other.remote, other.version) <> (file.remote, file.version))) AS own
       FROM release_files AS file JOIN release_blobs AS blob USING (sha256)
      WHERE file.remote = $1 AND file.version = $2`,
    [remote, version],
  );
  const row = rows[0];
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0), ownBytes: Number(row?.own ?? 0) };
}

/**
 * Writes a release's files from the store into `deployDir/<remote>/<version>/` unless they are
 * there; true when the release is there now, false when the store holds no files of it. The files
 * are written into a private folder beside it and moved in by one rename, so a reader never sees
 * half a release; a process that made the same copy first wins, and this one's is dropped. Every
 * file gets the release's publishing time, so every instance answers the same validators (ETag).
 */
export async function materializeRelease(db: Queryable, deployDir: string, remote: string, version: string): Promise<boolean> {
  const { rows } = await db.query<{ path: string; body: Buffer; published_at: Date }>(
    `SELECT file.path, blob.body, release.published_at
       FROM release_files AS file
       JOIN release_blobs AS blob USING (sha256)
       JOIN releases AS release USING (remote, version)
      WHERE file.remote = $1 AND file.version = $2`,
    [remote, version],
  );
  if (rows.length === 0) return false;
  const target = join(deployDir, remote, version);
  mkdirSync(join(deployDir, remote), { recursive: true });
  // A dot name: the releases origin never serves it (shell/server/staticFiles.ts safePath).
  const staging = mkdtempSync(join(deployDir, '.materialize-'));
  try {
    for (const { path, body, published_at: at } of rows) {
      const file = join(staging, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, body);
      utimesSync(file, at, at);
    }
    try {
      renameSync(staging, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return true;
}
