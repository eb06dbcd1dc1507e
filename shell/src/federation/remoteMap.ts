import { remoteNames, type RemoteName } from './remotes';

/**
 * /remotes.json, read fresh at every boot: per remote, the stable release, an optional canary
 * for a share of members, and the URL pattern of any published version (for QA overrides).
 * The shell knows no URL of its own; moving or upgrading a remote is an edit of this map.
 */
export interface Release {
  version: string;
  /** The release's mf-manifest.json. */
  entry: string;
}

export interface CanaryRelease extends Release {
  /** Share of members, 0–100. */
  percent: number;
}

export interface RemoteRollout {
  stable: Release;
  canary?: CanaryRelease;
  /** The entry of any published version, with `{version}` in place of the version. */
  entryTemplate?: string;
}

export interface RemoteMap {
  remotes: Partial<Record<RemoteName, RemoteRollout>>;
}

export class RemoteMapError extends Error {}

// Versions name folders in URLs: keep them to the characters of a semantic version.
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;

export const isVersion = (value: unknown): value is string => typeof value === 'string' && VERSION.test(value);

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw => !!value && typeof value === 'object' && !Array.isArray(value);

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.trim() === '') return false;
  try {
    const url = new URL(value, window.location.href);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function release(value: unknown): Release | null {
  if (!isObject(value) || !isVersion(value.version) || !isHttpUrl(value.entry)) return null;
  return { version: value.version, entry: value.entry };
}

function canary(value: unknown): CanaryRelease | null {
  const base = release(value);
  const percent = isObject(value) ? value.percent : undefined;
  if (!base || typeof percent !== 'number' || !(percent >= 0 && percent <= 100)) return null;
  return { ...base, percent };
}

function remoteRollout(name: RemoteName, raw: Raw): RemoteRollout {
  // The map of the first releases named only an entry; it still means "this is stable".
  const stable = 'stable' in raw ? release(raw.stable) : release({ version: 'unversioned', entry: raw.entry });
  if (!stable) throw new RemoteMapError(`The map gives no valid address for ${name}.`);
  const rollout: RemoteRollout = { stable };

  // A bad canary or template costs only the canary: members get the stable release.
  if (raw.canary !== undefined) {
    const parsed = canary(raw.canary);
    if (parsed) rollout.canary = parsed;
    else console.warn(`[netnet] the map's canary for ${name} is malformed; everyone gets the stable release.`);
  }
  if (raw.entryTemplate !== undefined) {
    const template = raw.entryTemplate;
    if (typeof template === 'string' && template.includes('{version}') && isHttpUrl(template.replace('{version}', '0'))) {
      rollout.entryTemplate = template;
    } else {
      console.warn(`[netnet] the map's entry template for ${name} is malformed; versions of it cannot be pinned.`);
    }
  }
  return rollout;
}

/** Validates the map; a remote the map leaves out simply shows its fallback. */
export function parseRemoteMap(value: unknown): RemoteMap {
  if (!isObject(value) || !isObject(value.remotes)) {
    throw new RemoteMapError('The map of Netnet’s parts is malformed.');
  }
  const remotes: RemoteMap['remotes'] = {};
  for (const name of remoteNames) {
    const raw = value.remotes[name];
    if (raw === undefined) continue;
    if (!isObject(raw)) throw new RemoteMapError(`The map gives no valid address for ${name}.`);
    remotes[name] = remoteRollout(name, raw);
  }
  return { remotes };
}

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
