import { bucketOf, inCanary } from './bucket.ts';
import type { Release, RemoteRollout } from './map.ts';

/** 'dev': a developer's own dev server, pinned in their browser only (docs/releases.md). */
export type Channel = 'stable' | 'canary' | 'override' | 'dev';

/** The version a dev server's area is shown with: no release has it (not a SemVer). */
export const DEV_VERSION = 'dev';

export interface Choice extends Release {
  channel: Channel;
  /** The member's bucket for this remote, 0–100. */
  bucket: number;
}

/** The release a QA pin names, if the map lets this browser pin it (registerRollout drops the others). */
export const pinnedRelease = (rollout: RemoteRollout, version: string): Release | undefined =>
  rollout.pinnable.find((release) => release.version === version);

/**
 * Which release of a remote this member gets: the dev server this browser pinned (the map names
 * one only for that browser), then a QA pin the map allows, then the canary if the member's bucket
 * falls inside its share, else stable. A dev server's files carry no hashes (it has no release).
 */
export function chooseRelease(
  remote: string,
  rollout: RemoteRollout,
  { identity, override }: { identity: string; override?: string | undefined },
): Choice {
  const bucket = bucketOf(remote, identity);
  const { stable, canary } = rollout;
  if (rollout.dev) return { version: DEV_VERSION, entry: rollout.dev.entry, channel: 'dev', bucket };
  if (override !== undefined) {
    const pinned = pinnedRelease(rollout, override);
    if (pinned) return { ...(override === stable.version ? stable : pinned), channel: override === stable.version ? 'stable' : 'override', bucket };
    console.warn(`[netnet] ${remote} cannot be pinned to ${override} here: the map does not list it as pinnable.`);
  }
  if (canary && inCanary(bucket, canary.percent)) {
    const { percent: _percent, ...release } = canary;
    return { ...release, channel: 'canary', bucket };
  }
  return { ...stable, channel: 'stable', bucket };
}
