import { chooseRelease, type Choice, type RemoteRollout } from '@netnet/rollout';
import type { RemoteName } from '../federation/remotes';

// The browser buckets a member by uid and a visitor by device id (rollout/identity.ts); the server
// must pick the very same release from the cookies, or hydration would load another one
// (docs/architecture.md#server-rendering).

export interface RequestIdentity {
  /** The member hint cookie's uid, or null for a visitor. */
  member: string | null;
  /** The device cookie's id (a fresh one on a first visit). */
  device: string;
}

/** The release of `remote` that the request's member or visitor gets. */
export function releaseFor(remote: RemoteName, rollout: RemoteRollout, { member, device }: RequestIdentity): Choice {
  return chooseRelease(remote, rollout, { identity: member ?? device });
}
