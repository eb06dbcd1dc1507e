import type { IncomingMessage } from 'node:http';
import type { RemoteMap } from '../federation/remoteMap';
import { remoteNames, type RemoteName } from '../federation/remotes';
import { chooseRelease, type Channel } from '@netnet/rollout';
import { DEVICE_COOKIE, MEMBER_COOKIE, readIdCookie } from '../rollout/cookies';

// What a page's release-health ticket names (docs/release-health.md): for every
// remote, the stable it may fall back to, and the canary when this member or device gets it. A
// report on any other release is not counted, so nobody can report on a canary they were never given.

/** A release as the ticket names it. */
export interface TicketRelease {
  remote: RemoteName;
  version: string;
  channel: Channel;
}

/** Whom a request's releases are chosen for: the member hint cookie's uid, the device cookie's id. */
export interface TicketIdentity {
  member: string | null;
  device: string | null;
}

/** The identity a request's cookies name (either may be missing). */
export const identityOf = (req: Pick<IncomingMessage, 'headers'>): TicketIdentity => ({
  member: readIdCookie(req.headers.cookie, MEMBER_COOKIE),
  device: readIdCookie(req.headers.cookie, DEVICE_COOKIE),
});

/**
 * The releases a page with this map may report on. The browser buckets by the member's uid once
 * signed in, else by the device: a canary either identity gets is named. With neither (a first
 * visit to a page the browser renders), the browser makes up its device id itself, so every canary
 * is named. `failed`: a release that already failed on the server for this page, counted there.
 */
export function ticketReleases(map: RemoteMap, { member, device }: TicketIdentity, failed?: { remote: string; version: string }): TicketRelease[] {
  const releases: TicketRelease[] = [];
  for (const remote of remoteNames) {
    const rollout = map.remotes[remote];
    if (!rollout) continue;
    releases.push({ remote, version: rollout.stable.version, channel: 'stable' });
    const canary = rollout.canary;
    if (!canary || (failed?.remote === remote && failed.version === canary.version)) continue;
    const identities = [member, device].filter((identity): identity is string => identity !== null);
    const given = identities.length === 0 || identities.some((identity) => chooseRelease(remote, rollout, { identity }).channel === 'canary');
    if (given) releases.push({ remote, version: canary.version, channel: 'canary' });
  }
  return releases;
}
