import { registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { bucketIdentity } from '../rollout/identity';
import { pinsForPage, removeOverrideParams } from '../rollout/overrides';
import { createRemoteVersions, type ChosenRelease, type RemoteVersions } from '../rollout/remoteVersions';
import { startRolloutStatus } from '../rollout/rolloutStatus';
import { answerIntegrityLookups } from './integrity';
import type { RemoteMap } from './remoteMap';
import type { RemoteName } from './remotes';
import rolloutPlugin, { fallBackLate, isFileLoadError } from './rolloutPlugin';

let versions: RemoteVersions | null = null;

/** Whether a file of `remote` that failed to load after its entry can be replaced by stable's. */
export const canFallBackLate = (remote: RemoteName, error: unknown): boolean =>
  versions !== null && isFileLoadError(error) && versions.choose(remote)?.channel !== 'stable';

/** Re-points `remote` at stable after such a failure (see rolloutPlugin's fallBackLate); false: nothing changed. */
export const fallBackToStable = (remote: RemoteName, error: unknown): boolean =>
  versions !== null && fallBackLate(versions, remote, error, registerRemotes);

/**
 * Hands the map to the Module Federation runtime. Nothing is registered or fetched yet: each
 * remote's release is chosen when the member first needs it (rolloutPlugin's beforeRequest),
 * by which time a returning member's uid is known. QA pins are read once, checked against the
 * map's pinnable releases, and their parameters taken out of the address bar. `chosen`: the
 * releases a server-rendered page was rendered with, which this page then loads.
 */
export function registerRollout(map: RemoteMap, { search = window.location.search, chosen }: { search?: string; chosen?: Partial<Record<RemoteName, ChosenRelease>> } = {}): void {
  const { honoured, refused, devServers, askedDevPins } = pinsForPage(search, map);
  removeOverrideParams();
  startRolloutStatus({ debug: new URLSearchParams(search).has('debug'), overrides: honoured, refusedPins: refused, devServers, askedDevPins });
  answerIntegrityLookups();
  versions = createRemoteVersions({ map, overrides: honoured, identity: bucketIdentity, chosen });
  registerPlugins([rolloutPlugin(versions)]);
}
