import { registerPlugins } from '@module-federation/enhanced/runtime';
import { bucketIdentity } from '../rollout/identity';
import { overridesFromUrl } from '../rollout/overrides';
import { createRemoteVersions } from '../rollout/remoteVersions';
import { startRolloutStatus } from '../rollout/rolloutStatus';
import type { RemoteMap } from './remoteMap';
import rolloutPlugin from './rolloutPlugin';

/**
 * Hands the map to the Module Federation runtime. Nothing is registered or fetched yet: each
 * remote's release is chosen when the member first needs it (rolloutPlugin's beforeRequest),
 * by which time a returning member's uid is known.
 */
export function registerRollout(map: RemoteMap, search = window.location.search): void {
  const overrides = overridesFromUrl(search);
  startRolloutStatus({ debug: new URLSearchParams(search).has('debug'), overrides });
  registerPlugins([rolloutPlugin(createRemoteVersions({ map, overrides, identity: bucketIdentity }))]);
}
