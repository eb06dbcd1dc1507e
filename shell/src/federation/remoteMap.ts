import { parseRemoteMap as parseMap, RemoteMapError, type RemoteMap as AnyRemoteMap } from '@netnet/rollout';
import { remoteNames, type RemoteName } from './remotes';

// /remotes.json, read fresh at every boot. Its shape and its validator are the rollout rule's
// (@netnet/rollout), the same the control plane writes it by; the shell reads it for its remotes.
export { RemoteMapError, type CanaryRelease, type DevServer, type Release, type RemoteRollout } from '@netnet/rollout';

export type RemoteMap = AnyRemoteMap<RemoteName>;

/** Validates the map against the shell's remotes; a relative entry is the page's. */
export const parseRemoteMap = (value: unknown): RemoteMap => parseMap(value, { remotes: remoteNames, base: globalThis.location?.href });

export async function fetchRemoteMap(source: string | Promise<Response> = '/remotes.json'): Promise<RemoteMap> {
  let response: Response;
  try {
    response = await (typeof source === 'string' ? fetch(source, { cache: 'no-cache' }) : source);
  } catch {
    throw new RemoteMapError('The map of Netnet’s parts could not be reached.');
  }
  if (!response.ok) throw new RemoteMapError(`The map of Netnet’s parts is missing (HTTP ${response.status}).`);
  const body: unknown = await response.json().catch(() => null);
  return parseRemoteMap(body);
}
