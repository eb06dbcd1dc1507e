// The origin folder: one immutable folder per published release, deploy/<remote>/<version>/, which
// the releases origin serves (the rollout maps live in the store, docs/store.md, "The database").
// Shared by the release CLI and `npm start`.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isVersion } from '@netnet/rollout';
import { compareVersions } from '../names.ts';
import { site } from '../site.ts';
import type { Queryable } from '../store/database.ts';
import { registerRelease } from '../store/releases.ts';
import { entryIntegrity } from './integrity.ts';

export const deployDir = (env = process.env) => site.deployDir(env);
export const releaseDir = (remote: string, version: string, env = process.env): string => join(deployDir(env), remote, version);
const isPublished = (remote: string, version: string, env = process.env): boolean =>
  existsSync(join(releaseDir(remote, version, env), 'mf-manifest.json'));

/** The published versions of a remote, oldest first. */
export function publishedVersions(remote: string, env = process.env): string[] {
  const dir = join(deployDir(env), remote);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => isVersion(name) && isPublished(remote, name, env))
    .sort(compareVersions);
}

// deploy/<remote>/<version>/<file>, after shell/server/staticFiles.ts has refused dot segments.
const RELEASE_FILE = /^\/([^/]+)\/([^/]+)\/./;

/**
 * What the releases origin may serve: files of finished releases only — a known remote, a valid
 * version, its mf-manifest.json in place. Not the rollout files, not a staging folder, not a
 * version folder still being filled by hand.
 */
export function isReleaseFile(path: string, env = process.env): boolean {
  const [, remote, version] = RELEASE_FILE.exec(path) ?? [];
  return remote !== undefined && site.remotes.includes(remote) && isVersion(version) && isPublished(remote, version, env);
}

/**
 * Registers the releases found in the origin folder that the store does not list yet (published
 * before the store existed, or by a copy of the folder); returns how many.
 */
export async function registerPublished(db: Queryable, remotes: string[], env = process.env): Promise<number> {
  let added = 0;
  for (const remote of remotes) {
    for (const version of publishedVersions(remote, env)) {
      if (await registerRelease(db, remote, version, entryIntegrity(releaseDir(remote, version, env)))) added += 1;
    }
  }
  return added;
}
