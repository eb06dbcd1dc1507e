// A token bucket per client: `burst` requests at once, then `perSecond` on average. Proxy mode
// spends the server's TMDB quota on every cache miss, so one client must not spend it all.
import { Lru } from './lru';

export interface RateLimit {
  /** Requests a client may make at once. */
  burst: number;
  /** Requests a client regains each second. */
  perSecond: number;
}

export interface RateLimiterOptions extends RateLimit {
  /** Clients remembered at once (least recently seen forgotten first), so memory stays bounded. */
  maxClients?: number;
  now?: () => number;
}

export interface RateLimiter {
  /** Takes one request from the client's bucket: 0 when allowed, else whole seconds to wait. */
  take(client: string): number;
  readonly clients: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function createRateLimiter({ burst, perSecond, maxClients = 10_000, now = Date.now }: RateLimiterOptions): RateLimiter {
  const buckets = new Lru<string, Bucket>({ maxEntries: maxClients });
  return {
    take(client) {
      const time = now();
      let bucket = buckets.get(client);
      if (!bucket) buckets.set(client, (bucket = { tokens: burst, at: time }));
      bucket.tokens = Math.min(burst, bucket.tokens + ((time - bucket.at) / 1000) * perSecond);
      bucket.at = time;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    },
    get clients() {
      return buckets.size;
    },
  };
}
