import { registerRemotes } from '@module-federation/enhanced/runtime';
import { federationName, type RemoteName } from './remotes';
import type { RemoteMap } from './remoteMap';

/** Tells the Module Federation runtime where each remote lives; nothing is fetched yet. */
export function registerRemoteMap(map: RemoteMap): void {
  registerRemotes(
    Object.entries(map.remotes).map(([remote, { entry }]) => ({
      name: federationName(remote as RemoteName),
      entry,
    })),
    { force: true },
  );
}
