// A token bucket per client: `burst` at once, then `perSecond` on average. The collector's reports
// and tickets, and the catalogue's fetches from TMDB, each keep one client from taking everyone's.

export interface Rate {
  /** What a client regains each second. */
  perSecond: number;
  /** What a client may take at once. */
  burst: number;
  /** Clients remembered at once, so memory stays bounded: idle ones (full again) go first, then the least recently seen. */
  maxClients?: number;
}

export interface RateLimit {
  /** Takes one for `client`: 0 when it had one, else the whole seconds until it has (a Retry-After). */
  take(client: string): number;
  readonly clients: number;
}

export function createRateLimit({ perSecond, burst, maxClients = 10_000 }: Rate, now: () => number = Date.now): RateLimit {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refill = (bucket: { tokens: number; at: number }, at: number) => Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond);
  function evict(at: number) {
    // The Map's order is least recently seen first.
    for (const [client, bucket] of buckets) {
      if (buckets.size < maxClients && refill(bucket, at) < burst) break;
      buckets.delete(client);
    }
  }
  return {
    take(client) {
      const at = now();
      const bucket = buckets.get(client);
      // Only a known client can be out of tokens: a new one starts with a full bucket.
      const tokens = bucket ? refill(bucket, at) : burst;
      if (tokens < 1) {
        bucket!.tokens = tokens;
        bucket!.at = at;
        return Math.max(1, Math.ceil((1 - tokens) / perSecond));
      }
      if (!bucket && buckets.size >= maxClients) evict(at);
      buckets.delete(client);
      buckets.set(client, { tokens: tokens - 1, at });
      return 0;
    },
    get clients() {
      return buckets.size;
    },
  };
}
