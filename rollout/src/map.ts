// The map of releases (/remotes.json): its one shape and its one validator. The control plane
// writes it (control-plane/src/rollouts/remoteMap.ts), the shell's server and the browser read it.
import { isLoopbackOrigin } from './devPin/origin.ts';
import { isVersion } from './version.ts';

/** One SRI hash, as the browser's `integrity` attribute takes it. */
export const SRI = /^sha384-[A-Za-z0-9+/]{64}$/;

/**
 * Per remote, the stable release, an optional canary for a share of members, and the releases QA
 * may pin here (none where pins are not allowed). The shell knows no URL of its own; moving or
 * upgrading a remote is an edit of this map.
 */
export interface Release {
  version: string;
  /** The release's mf-manifest.json. */
  entry: string;
  /**
   * SHA-384 of the release's entry files as published (`mf-manifest.json`, `remoteEntry.js`),
   * by path relative to the entry; the entry's own webpack runtime checks its chunks. Absent for a
   * remote served from its own build (no release, so nothing recorded).
   */
  integrity?: Record<string, string>;
}

export interface CanaryRelease extends Release {
  /** Share of members, 0–100. */
  percent: number;
}

export interface RemoteRollout {
  stable: Release;
  canary?: CanaryRelease;
  /** The only releases a QA pin may choose (docs/releases.md). */
  pinnable: Release[];
  /**
   * The dev server this browser alone loads the remote from, named by the server only for a
   * browser whose dev pin it accepted (docs/releases.md, "Develop against the real site").
   */
  dev?: DevServer;
}

export interface DevServer {
  /** A loopback origin: http://localhost:<port>, http://127.0.0.1:<port> or http://[::1]:<port>. */
  origin: string;
  /** Its mf-manifest.json. */
  entry: string;
}

export interface RemoteMap<Name extends string = string> {
  /** The environment whose rollout this is (the server names it; the browser needs it not). */
  environment?: string;
  remotes: Partial<Record<Name, RemoteRollout>>;
  /** This page load's release-health ticket, when the server signed one (docs/release-health.md). */
  ticket?: string;
}

export class RemoteMapError extends Error {}

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw => !!value && typeof value === 'object' && !Array.isArray(value);

function isHttpUrl(value: unknown, base: string | undefined): value is string {
  if (typeof value !== 'string' || value.trim() === '') return false;
  try {
    // The page's address resolves a relative entry; the shell's server sees absolute ones only.
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

// The paths of a release's hashes are files beside its entry.
const FILE = /^[\w.-]+(?:\/[\w.-]+)*$/;

/** undefined: none given; null: malformed (the release cannot be trusted, so it is not used). */
function integrity(value: unknown): Record<string, string> | undefined | null {
  if (value === undefined) return undefined;
  if (!isObject(value)) return null;
  const entries = Object.entries(value);
  const valid = entries.length > 0 && entries.every(([file, hash]) => FILE.test(file) && !file.split('/').includes('..') && typeof hash === 'string' && SRI.test(hash));
  return valid ? (Object.fromEntries(entries) as Record<string, string>) : null;
}

function release(value: unknown, base: string | undefined): Release | null {
  if (!isObject(value) || !isVersion(value.version) || !isHttpUrl(value.entry, base)) return null;
  const hashes = integrity(value.integrity);
  if (hashes === null) return null;
  return { version: value.version, entry: value.entry, ...(hashes && { integrity: hashes }) };
}

function canary(value: unknown, base: string | undefined): CanaryRelease | null {
  const parsed = release(value, base);
  const percent = isObject(value) ? value.percent : undefined;
  if (!parsed || typeof percent !== 'number' || !(percent >= 0 && percent <= 100)) return null;
  return { ...parsed, percent };
}

function remoteRollout(name: string, raw: Raw, base: string | undefined): RemoteRollout {
  // The map of the first releases named only an entry; it still means "this is stable".
  const legacy = !('stable' in raw) && isHttpUrl(raw.entry, base) ? { version: 'unversioned', entry: raw.entry } : null;
  const stable = 'stable' in raw ? release(raw.stable, base) : legacy;
  if (!stable) throw new RemoteMapError(`The map gives no valid address for ${name}.`);
  const rollout: RemoteRollout = { stable, pinnable: [] };

  // A bad canary or template costs only the canary: members get the stable release.
  if (raw.canary !== undefined) {
    const parsed = canary(raw.canary, base);
    if (parsed) rollout.canary = parsed;
    else console.warn(`[netnet] the map's canary for ${name} is malformed; everyone gets the stable release.`);
  }
  // Pins are for QA: a malformed list costs only the pins. An entry template (the earlier maps'
  // "any version") is ignored: a pin needs the release's recorded hashes.
  if (raw.pinnable !== undefined) {
    const pins = Array.isArray(raw.pinnable) ? raw.pinnable.map((pin) => release(pin, base)) : [null];
    if (pins.every((pin): pin is Release => pin !== null)) rollout.pinnable = pins;
    else console.warn(`[netnet] the map's pinnable releases of ${name} are malformed; no version of it can be pinned.`);
  }
  if (raw.dev !== undefined) {
    const dev = devServer(raw.dev);
    if (dev) rollout.dev = dev;
    else console.warn(`[netnet] the map's dev server for ${name} is not a loopback origin; it is not loaded.`);
  }
  return rollout;
}

/** A dev server only on this machine, its entry at its root; anything else is not loaded. */
function devServer(value: unknown): DevServer | null {
  if (!isObject(value) || typeof value.origin !== 'string' || value.entry !== `${value.origin}/mf-manifest.json`) return null;
  return isLoopbackOrigin(value.origin) ? { origin: value.origin, entry: value.entry } : null;
}

/**
 * Validates the map; a remote the map leaves out simply shows its fallback. `remotes`: the names
 * the reader knows (others are ignored); `base`: the address a relative entry is resolved against
 * (the page's, in a browser).
 */
export function parseRemoteMap<Name extends string>(value: unknown, { remotes: names, base }: { remotes: readonly Name[]; base?: string | undefined }): RemoteMap<Name> {
  if (!isObject(value) || !isObject(value.remotes)) {
    throw new RemoteMapError('The map of Netnet’s parts is malformed.');
  }
  const remotes: RemoteMap<Name>['remotes'] = {};
  for (const name of names) {
    const raw = value.remotes[name];
    if (raw === undefined) continue;
    if (!isObject(raw)) throw new RemoteMapError(`The map gives no valid address for ${name}.`);
    remotes[name] = remoteRollout(name, raw, base);
  }
  return typeof value.ticket === 'string' ? { remotes, ticket: value.ticket } : { remotes };
}
