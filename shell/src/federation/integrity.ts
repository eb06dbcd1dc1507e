import { SRI, type Release } from '@netnet/rollout';

// Subresource integrity for remote code. The map vouches, by SHA-384, for three files of each
// release: its manifest, its container (remoteEntry.js) and its integrity.json, the record of every
// file it published. The federation runtime's requests for the first two carry their hash (the
// retry plugin's fetch, and the rollout plugin's createScript); the record is fetched alongside
// and answers the container's own webpack runtime, which asks `self['netnet:integrity'](url)`
// for each chunk and style sheet it adds (scripts/webpack/chunkIntegrity.js). A file changed
// after publishing then fails to load and is handled like any failed load: a canary falls back to
// stable, a stable area shows its Retry. A remote served from its own build has no hashes: its
// files load as before (docs/architecture.md, releases and security).

// The retry runtime plugin imports this file before any shared module exists: keep it free of
// value imports (a value import of remoteMap.ts pulls in @netnet/shared and breaks the page).

export const RECORD = 'integrity.json';
export const LOOKUP = 'netnet:integrity';

const hashes = new Map<string, string>();
/** Per release folder: its record, fetched once; a folder is in here once the map vouched for it. */
const records = new Map<string, Promise<void>>();

const folderOf = (url: string) => url.slice(0, url.lastIndexOf('/') + 1);
const absolute = (url: string) => new URL(url, window.location.href).href;


async function loadRecord(folder: string, integrity: string): Promise<void> {
  const response = await fetch(`${folder}${RECORD}`, { integrity });
  if (!response.ok) throw new Error(`${folder}${RECORD} is missing (HTTP ${response.status}).`);
  const { files } = (await response.json()) as { files?: Record<string, unknown> };
  for (const [file, hash] of Object.entries(files ?? {})) {
    if (typeof hash === 'string' && SRI.test(hash)) hashes.set(new URL(file, folder).href, hash);
  }
}

/** Remembers what the map vouches for about a release, and starts fetching its record. */
export function trustRelease({ entry, integrity }: Release): void {
  if (!integrity) return;
  const folder = folderOf(absolute(entry));
  for (const [file, hash] of Object.entries(integrity)) hashes.set(new URL(file, folder).href, hash);
  if (records.has(folder)) return;
  const record = integrity[RECORD]
    ? loadRecord(folder, integrity[RECORD])
    : Promise.reject(new Error(`the map gives no hash for ${folder}${RECORD}.`));
  record.catch(() => {}); // read, and reported, by whoever loads the release
  records.set(folder, record);
}

/**
 * Settles once the hashes of the release holding this URL are known; rejects when its record
 * cannot be had as published (then none of its files may run).
 */
export function releaseRecord(url: string): Promise<void> {
  try {
    return records.get(folderOf(absolute(url))) ?? Promise.resolve();
  } catch {
    return Promise.resolve();
  }
}

/** The `integrity` a request for this URL must carry, if the map vouched for its release. */
export function integrityOf(url: string): string | undefined {
  try {
    return hashes.get(absolute(url));
  } catch {
    return undefined;
  }
}

/** Attributes for a <script> or <link> the federation runtime is about to add for this URL. */
export function integrityAttributes(url: string): { integrity?: string; crossorigin?: 'anonymous' } {
  const integrity = integrityOf(url);
  if (integrity) return { integrity, crossorigin: 'anonymous' };
  // Preloads of a checked release's files: its chunks load in CORS mode (with integrity), so a
  // preload must too, or the browser cannot reuse it.
  try {
    return records.has(folderOf(absolute(url))) ? { crossorigin: 'anonymous' } : {};
  } catch {
    return {};
  }
}

declare global {
  interface Window {
    'netnet:integrity'?: (url: string) => string | undefined;
  }
}

/** Lets the remotes' webpack runtimes ask for their chunks' hashes. */
export function answerIntegrityLookups(): void {
  window[LOOKUP] = integrityOf;
}
