import type { Release, RemoteRollout } from '../federation/remoteMap';
import type { RemoteName } from '../federation/remotes';
import { bucketOf, inCanary } from './bucket';

export type Channel = 'stable' | 'canary' | 'override';

export interface Choice extends Release {
  channel: Channel;
  /** The member's bucket for this remote, 0–100. */
  bucket: number;
}

/**
 * Which release of a remote this member gets: a QA pin first, then the canary if the member's
 * bucket falls inside its share, else stable.
 */
export function chooseRelease(
  remote: RemoteName,
  rollout: RemoteRollout,
  { identity, override }: { identity: string; override?: string | undefined },
): Choice {
  const bucket = bucketOf(remote, identity);
  const { stable, canary, entryTemplate } = rollout;
  if (override === stable.version) return { ...stable, channel: 'stable', bucket };
  if (override !== undefined) {
    if (canary?.version === override) return { version: canary.version, entry: canary.entry, channel: 'override', bucket };
    if (entryTemplate) {
      return { version: override, entry: entryTemplate.replace('{version}', encodeURIComponent(override)), channel: 'override', bucket };
    }
    console.warn(`[netnet] ${remote} cannot be pinned to ${override} here (the map gives no entry template).`);
  }
  if (canary && inCanary(bucket, canary.percent)) {
    return { version: canary.version, entry: canary.entry, channel: 'canary', bucket };
  }
  return { ...stable, channel: 'stable', bucket };
}
