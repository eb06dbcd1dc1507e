// The names a command or a request gives a release by: a remote of the site and a version,
// checked before anything uses them, and versions in SemVer order.
import { isVersion } from '@netnet/rollout';
import semver from 'semver';
import { DeployError } from './errors.ts';
import site from '@netnet/site';

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

/** SemVer precedence: a pre-release sorts before its release (1.4.0-rc.1 < 1.4.0). */
export const compareVersions = (a: string, b: string): number => semver.compare(a, b);
