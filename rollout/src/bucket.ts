// A member's bucket: a number in [0, 100) that depends only on the remote and the member's id,
// so the same member sees the same version on every load, on every device they sign in on.
// A canary at p% serves the buckets below p; raising p only adds members, never swaps them.

/** FNV-1a, then murmur3's finaliser: FNV alone barely moves its high bits for ids that differ at the end. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** Each remote has its own buckets: being in one remote's canary says nothing about another's. */
export function bucketOf(remote: string, id: string): number {
  return (hash32(`${remote}:${id}`) / 2 ** 32) * 100;
}

export const inCanary = (bucket: number, percent: number): boolean => bucket < percent;
