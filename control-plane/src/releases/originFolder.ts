// A process's working folder: one immutable folder per release it published or served,
// deploy/<remote>/<version>/, a copy of the release the store holds (docs/store.md, "Release
// files"). Folders from before releases lived in the store are moved into it at start.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isVersion } from '@netnet/rollout';
import site from '@netnet/site';
import { compareVersions } from '../names.ts';
import type { Queryable, Store } from '../store/database.ts';
import { publishRelease } from '../store/releases.ts';
import { materializeRelease, storedFileHashes } from '../store/releaseFiles.ts';
import { entryIntegrity } from './integrity.ts';

// `deployDir`: the working folder, the config's (NETNET_DEPLOY_DIR) of the process that calls.
export const releaseDir = (deployDir: string, remote: string, version: string): string => join(deployDir, remote, version);
const isPublished = (deployDir: string, remote: string, version: string): boolean => existsSync(join(releaseDir(deployDir, remote, version), 'mf-manifest.json'));

/** The published versions of a remote in the working folder `deployDir`, oldest first. */
export function publishedVersions(deployDir: string, remote: string): string[] {
  const dir = join(deployDir, remote);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => isVersion(name) && isPublished(deployDir, remote, name))
    .sort(compareVersions);
}

/**
 * Makes sure the working folder `deployDir` has its copy of a release the store holds (published
 * through another replica of the API, or by a command elsewhere), for what reads its files there:
 * the compatibility gate, the console's check of its files. False when the store holds no files of it.
 */
export async function workingCopy(db: Queryable, deployDir: string, remote: string, version: string): Promise<boolean> {
  return existsSync(join(deployDir, remote, version)) || materializeRelease(db, deployDir, remote, version);
}

// deploy/<remote>/<version>/<file>, after shell/server/staticFiles.ts has refused dot segments.
const RELEASE_FILE = /^\/([^/]+)\/([^/]+)\/./;

/**
 * What the releases origin may serve: files of finished releases only — a known remote, a valid
 * version, its mf-manifest.json in place. Not the rollout files, not a staging folder, not a
 * version folder still being filled by hand.
 */
export function isReleaseFile(deployDir: string, path: string): boolean {
  const [, remote, version] = RELEASE_FILE.exec(path) ?? [];
  return remote !== undefined && site.remotes.includes(remote) && isVersion(version) && isPublished(deployDir, remote, version);
}

/**
 * Puts the releases found in the working folder that the store holds no files of into the store
 * (published before releases lived there, or a copy of an older folder); returns how many.
 */
export async function registerPublished(db: Store, remotes: string[], deployDir: string): Promise<number> {
  let added = 0;
  for (const remote of remotes) {
    for (const version of publishedVersions(deployDir, remote)) {
      if ((await storedFileHashes(db, remote, version)).size > 0) continue;
      const dir = releaseDir(deployDir, remote, version);
      await publishRelease(db, { remote, version, integrity: entryIntegrity(dir), dir });
      added += 1;
    }
  }
  return added;
}
