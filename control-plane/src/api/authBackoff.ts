// Repeated wrong tokens from one client address are answered ever later (docs/deploy.md, "What a
// team's pipeline runs"): the first few 401s at once, then each waits twice as long as the one
// before, up to 2 s, until the address has had none for a minute or sends a valid token. A
// pipeline with a valid token never waits; guessing secrets from one address slows to a crawl.

export const AUTH_BACKOFF = Object.freeze({ free: 5, baseMs: 100, maxMs: 2_000, forgetMs: 60_000, maxClients: 10_000 });

export function createAuthBackoff({ free, baseMs, maxMs, forgetMs, maxClients } = AUTH_BACKOFF, now: () => number = Date.now) {
  const failures = new Map<string, { count: number; at: number }>();
  return {
    /** Counts a 401 to `client`; how long (ms) its answer waits. */
    failed(client: string): number {
      const at = now();
      const known = failures.get(client);
      const count = known && at - known.at < forgetMs ? known.count + 1 : 1;
      failures.delete(client);
      // The least recently failing go first when the table is full.
      if (failures.size >= maxClients) failures.delete(failures.keys().next().value as string);
      failures.set(client, { count, at });
      return count <= free ? 0 : Math.min(maxMs, baseMs * 2 ** (count - free - 1));
    },
    /** A valid token from `client`: its count starts again. */
    succeeded(client: string): void {
      failures.delete(client);
    },
  };
}
