import type { Release } from '@netnet/rollout';
import { matchesHash } from '@netnet/render-sandbox';

// The hashes a release recorded for its files (its integrity.json), read by the server the way
// the browser reads them (federation/integrity.ts): checked against the hash the map gives for the
// record, once per release. The head's links to a checked release's files carry them
// (docs/architecture.md#server-rendering): the browser checks what the server links (a style sheet
// found linked is never added again by the remote) and reuses what the server preloads (a preload
// without the hash its script asks for is fetched twice).

const RECORD = 'integrity.json';
const records = new Map<string, Promise<ReadonlyMap<string, string>>>();

async function fetchRecord(release: Release, expected: string | undefined): Promise<ReadonlyMap<string, string>> {
  const url = new URL(RECORD, release.entry).href;
  if (!expected) throw new Error(`the map gives no hash for ${url}.`);
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  if (!matchesHash(body, expected, url)) throw new Error(`${url} does not match the hash the map gives.`);
  const { files } = JSON.parse(body.toString('utf8')) as { files?: Record<string, unknown> };
  const hashes = new Map<string, string>();
  for (const [file, hash] of Object.entries(files ?? {})) if (typeof hash === 'string') hashes.set(new URL(file, release.entry).href, hash);
  return hashes;
}

/**
 * The hash of each of a checked release's files, by URL; null for a release without recorded
 * hashes (a remote served from its own build). Rejects when the record cannot be had as published.
 */
export function recordedHashes(release: Release): Promise<ReadonlyMap<string, string>> | null {
  if (!release.integrity) return null;
  let record = records.get(release.entry);
  if (!record) {
    record = fetchRecord(release, release.integrity[RECORD]);
    records.set(release.entry, record);
    record.catch(() => records.delete(release.entry));
  }
  return record;
}

/** Forgets the records of releases no longer in the map. */
export function keepRecordsOf(releases: readonly Release[]): void {
  const kept = new Set(releases.map((release) => release.entry));
  for (const entry of records.keys()) if (!kept.has(entry)) records.delete(entry);
}
