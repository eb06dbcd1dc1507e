import { registerPlugins } from '@module-federation/enhanced/runtime';
import { bucketIdentity } from '../rollout/identity';
import { pinsForPage, removeOverrideParams } from '../rollout/overrides';
import { createRemoteVersions } from '../rollout/remoteVersions';
import { startRolloutStatus } from '../rollout/rolloutStatus';
import { answerIntegrityLookups } from './integrity';
import type { Choice } from '../rollout/chooseRelease';
import type { RemoteMap } from './remoteMap';
import type { RemoteName } from './remotes';
import rolloutPlugin from './rolloutPlugin';

/**
 * Hands the map to the Module Federation runtime. Nothing is registered or fetched yet: each
 * remote's release is chosen when the member first needs it (rolloutPlugin's beforeRequest),
 * by which time a returning member's uid is known. QA pins are read once, checked against the
 * map's pinnable releases, and their parameters taken out of the address bar. `chosen`: the
 * releases a server-rendered page was rendered with, which this page then loads.
 */
export function registerRollout(map: RemoteMap, { search = window.location.search, chosen }: { search?: string; chosen?: Partial<Record<RemoteName, Choice>> } = {}): void {
  const { honoured, refused } = pinsForPage(search, map);
  removeOverrideParams();
  startRolloutStatus({ debug: new URLSearchParams(search).has('debug'), overrides: honoured, refusedPins: refused });
  answerIntegrityLookups();
  registerPlugins([rolloutPlugin(createRemoteVersions({ map, overrides: honoured, identity: bucketIdentity, chosen }))]);
}
