// The deploy tree: one immutable folder per published release, deploy/<remote>/<version>/, and
// one rollout file per environment beside them. Shared by the release and rollout CLIs and `npm start`.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const site = createRequire(import.meta.url)('../site.cjs');

/** A mistake of the person at the keyboard: printed as one line, exit code 1. */
export class DeployError extends Error {}

// Semantic versions only: they name folders and URLs, and they sort.
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

export const isVersion = (value) => typeof value === 'string' && VERSION.test(value);

export function assertRemote(remote) {
  if (!site.remotes.includes(remote)) {
    throw new DeployError(`Unknown remote "${remote ?? ''}". Known remotes: ${site.remotes.join(', ')}.`);
  }
  return remote;
}

export function assertVersion(version) {
  if (!isVersion(version)) throw new DeployError(`"${version ?? ''}" is not a version like 1.4.0 or 1.4.0-rc.1.`);
  return version;
}

export const deployDir = (env = process.env) => site.deployDir(env);
export const releaseDir = (remote, version, env = process.env) => join(deployDir(env), remote, version);
export const isPublished = (remote, version, env = process.env) =>
  existsSync(join(releaseDir(remote, version, env), 'mf-manifest.json'));

/** The published versions of a remote, oldest first. */
export function publishedVersions(remote, env = process.env) {
  const dir = join(deployDir(env), remote);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => isVersion(name) && isPublished(remote, name, env))
    .sort(compareVersions);
}

export function compareVersions(a, b) {
  const [, ...pa] = VERSION.exec(a);
  const [, ...pb] = VERSION.exec(b);
  for (let i = 0; i < 3; i += 1) {
    if (Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) - Number(pb[i]);
  }
  // A pre-release sorts before its release (1.4.0-rc.1 < 1.4.0).
  if (pa[3] === pb[3]) return 0;
  if (pa[3] === undefined) return 1;
  if (pb[3] === undefined) return -1;
  return pa[3].localeCompare(pb[3], 'en', { numeric: true });
}
