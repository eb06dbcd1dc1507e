import { remoteNames, type RemoteName } from './remotes';

/** /remotes.json: where each remote's manifest lives, read fresh at every boot. */
export interface RemoteMap {
  remotes: Partial<Record<RemoteName, { entry: string }>>;
}

export class RemoteMapError extends Error {}

/** Validates the map; a remote the map leaves out simply shows its fallback. */
export function parseRemoteMap(value: unknown): RemoteMap {
  if (!value || typeof value !== 'object' || !('remotes' in value)) {
    throw new RemoteMapError('The map of Netnet’s parts is malformed.');
  }
  const raw = (value as { remotes: unknown }).remotes;
  if (!raw || typeof raw !== 'object') throw new RemoteMapError('The map of Netnet’s parts is malformed.');
  const remotes: RemoteMap['remotes'] = {};
  for (const name of remoteNames) {
    const entry = (raw as Record<string, { entry?: unknown } | undefined>)[name]?.entry;
    if (entry === undefined) continue;
    if (typeof entry !== 'string' || entry.trim() === '' || !isHttpUrl(entry)) {
      throw new RemoteMapError(`The map gives no valid address for ${name}.`);
    }
    remotes[name] = { entry };
  }
  return { remotes };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value, window.location.href);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export async function fetchRemoteMap(url = '/remotes.json'): Promise<RemoteMap> {
  let response: Response;
  try {
    response = await fetch(url, { cache: 'no-cache' });
  } catch {
    throw new RemoteMapError('The map of Netnet’s parts could not be reached.');
  }
  if (!response.ok) throw new RemoteMapError(`The map of Netnet’s parts is missing (HTTP ${response.status}).`);
  const body: unknown = await response.json().catch(() => null);
  return parseRemoteMap(body);
}
