import type { Release, RemoteRollout } from '../federation/remoteMap';
import type { RemoteName } from '../federation/remotes';
import { bucketOf, inCanary } from './bucket';

export type Channel = 'stable' | 'canary' | 'override';

export interface Choice extends Release {
  channel: Channel;
  /** The member's bucket for this remote, 0–100. */
  bucket: number;
}

/** The release a QA pin names, if the map lets this browser pin it (registerRollout drops the others). */
export const pinnedRelease = (rollout: RemoteRollout, version: string): Release | undefined =>
  rollout.pinnable.find((release) => release.version === version);

/**
 * Which release of a remote this member gets: a QA pin the map allows first, then the canary if
 * the member's bucket falls inside its share, else stable.
 */
export function chooseRelease(
  remote: RemoteName,
  rollout: RemoteRollout,
  { identity, override }: { identity: string; override?: string | undefined },
): Choice {
  const bucket = bucketOf(remote, identity);
  const { stable, canary } = rollout;
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
