import type { Release, RemoteMap } from '../federation/remoteMap';
import type { RemoteName } from '../federation/remotes';
import { chooseRelease, type Choice } from '@netnet/rollout';
import type { Overrides } from './overrides';
import { recordRemote, type RemoteStatus } from './rolloutStatus';

/** The page's decisions about remote versions: one choice per remote, one fallback at most. */
export interface RemoteVersions {
  /** The release for the remote's first load (the same one afterwards); null if the map lacks it. */
  choose(remote: RemoteName): Choice | null;
  /** After a failed load: the stable release to load instead, once, when the failed one wasn't stable. */
  fallBack(remote: RemoteName, reason: string): { failed: Choice; stable: Release } | null;
  loaded(remote: RemoteName, buildVersion: string | undefined): void;
}

/** A release chosen before this page: by the server, with the canary or pin that failed there if one did. */
export type ChosenRelease = Choice & Pick<RemoteStatus, 'fellBackFrom'>;

interface Options {
  map: RemoteMap;
  overrides: Overrides;
  /** The member's uid or the device id, read when a remote is first needed. */
  identity: () => string;
  /**
   * Releases already chosen: the ones the server rendered the page with, which hydration must load
   * (with the canary or pin that failed on the server, if one did: told like a fallback here).
   */
  chosen?: Partial<Record<RemoteName, ChosenRelease>>;
}

export function createRemoteVersions({ map, overrides, identity, chosen: given = {} }: Options): RemoteVersions {
  const chosen = new Map<RemoteName, Choice>();
  for (const [remote, { fellBackFrom, ...choice }] of Object.entries(given) as [RemoteName, ChosenRelease][]) {
    chosen.set(remote, choice);
    recordRemote(remote, { ...choice, state: 'chosen', ...(fellBackFrom && { fellBackFrom }) });
  }

  return {
    choose(remote) {
      const existing = chosen.get(remote);
      if (existing) return existing;
      const rollout = map.remotes[remote];
      if (!rollout) return null;
      const choice = chooseRelease(remote, rollout, { identity: identity(), override: overrides[remote] });
      chosen.set(remote, choice);
      recordRemote(remote, { ...choice, state: 'chosen' });
      return choice;
    },
    fallBack(remote, reason) {
      const failed = chosen.get(remote);
      const stable = map.remotes[remote]?.stable;
      if (!failed || !stable || failed.channel === 'stable') return null;
      chosen.set(remote, { ...stable, channel: 'stable', bucket: failed.bucket });
      recordRemote(remote, {
        ...stable,
        channel: 'stable',
        state: 'chosen',
        fellBackFrom: { version: failed.version, channel: failed.channel, reason },
      });
      return { failed, stable };
    },
    loaded(remote, buildVersion) {
      recordRemote(remote, { state: 'loaded', ...(buildVersion ? { buildVersion } : {}) });
    },
  };
}
