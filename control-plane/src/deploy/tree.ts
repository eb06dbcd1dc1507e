// The deploy tree: one immutable folder per published release, deploy/<remote>/<version>/, which
// the releases origin serves (the rollout maps live in the store, docs/store.md, "The database").
// Shared by the release CLI and `npm start`.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isVersion } from '@netnet/rollout';
import semver from 'semver';
import { site } from '../site.ts';

/** A mistake of the person at the keyboard: printed as one line, exit code 1. */
export class DeployError extends Error {}


export function assertRemote(remote: string | undefined): string {
  if (remote === undefined || !site.remotes.includes(remote)) {
    throw new DeployError(`Unknown remote "${remote ?? ''}". Known remotes: ${site.remotes.join(', ')}.`);
  }
  return remote;
}

export function assertVersion(version: string | undefined): string {
  if (!isVersion(version)) throw new DeployError(`"${version ?? ''}" is not a version like 1.4.0 or 1.4.0-rc.1.`);
  return version;
}

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

/** SemVer precedence: a pre-release sorts before its release (1.4.0-rc.1 < 1.4.0). */
export const compareVersions = (a: string, b: string): number => semver.compare(a, b);

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
