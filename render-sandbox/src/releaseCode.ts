import { createHash } from 'node:crypto';
import type { Release } from '@netnet/rollout';

// A release's server build as its render process gets it: fetched by the shell's server from the
// releases origin and checked against the hash the release recorded, so the process runs exactly
// what was published (docs/sandbox.md).

/** The server build of a release: beside its browser manifest. */
export const serverEntryOf = (release: Release): string => new URL('server/remoteEntry.js', release.entry).href;
/** Where the release's browser files live: what its server build uses for the URLs it renders. */
export const browserBaseOf = (release: Release): string => new URL('.', release.entry).href;

const SERVER_BUILD = 'server/remoteEntry.js';

/**
 * The code of `release`'s server build. A published release carries hashes (`integrity`), and its
 * server build must match the one recorded for it; a release with hashes but none for its server
 * build is refused (a record that forgot the one file run on the server vouches for nothing). A
 * remote served from its own build (no hashes at all) is taken as it is.
 */
export async function fetchReleaseCode(release: Release, fetchTimeoutMs: number, get: typeof fetch = fetch): Promise<string> {
  const url = serverEntryOf(release);
  const expected = release.integrity?.[SERVER_BUILD];
  if (release.integrity && !expected) throw new Error(`${url}: the release recorded no hash for its server build.`);
  const response = await get(url, { signal: AbortSignal.timeout(fetchTimeoutMs) });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  if (expected && !matchesHash(body, expected, url)) throw new Error(`${url} does not match the hash its release recorded.`);
  return body.toString('utf8');
}

/** Whether `body` hashes to `expected` (`sha384-<base64>`, as a release records it); throws for an algorithm Node does not know. */
export function matchesHash(body: Buffer, expected: string, url: string): boolean {
  const [algorithm, digest] = expected.split('-', 2) as [string, string];
  try {
    return createHash(algorithm).update(body).digest('base64') === digest;
  } catch {
    throw new Error(`${url}: its recorded hash uses an unknown algorithm (${algorithm}).`);
  }
}
