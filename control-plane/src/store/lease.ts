// The guard's lease: of all the guards running (one in every instance of the shell's server, and
// any `npm run rollout -- guard`), only the holder of an environment's lease acts on it. The lease
// is a row with an expiry, renewed by its holder on every pass; when it lapses (a holder paused,
// cut off or gone) the next guard takes it and the fence grows by one. Every write a guard makes
// checks its fence in the same statement (control-plane/src/store/rollouts.ts updateRollout), so
// a guard that lost its lease without knowing it cannot change anything.
import type { Queryable } from './database.ts';

export interface Lease {
  holder: string;
  fence: number;
}

/** Takes or renews the lease for `ttlMs`: the lease, or null when another holds it. */
export async function acquireLease(db: Queryable, environment: string, holder: string, ttlMs: number): Promise<Lease | null> {
  const { rows } = await db.query<{ holder: string; fence: string }>(
    `INSERT INTO guard_leases AS l (environment, holder, fence, expires_at)
     VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
     ON CONFLICT (environment) DO UPDATE SET
       fence = CASE WHEN l.holder = EXCLUDED.holder AND l.expires_at > now() THEN l.fence ELSE l.fence + 1 END,
       holder = EXCLUDED.holder,
       expires_at = EXCLUDED.expires_at
     WHERE l.holder = EXCLUDED.holder OR l.expires_at <= now()
     RETURNING holder, fence`,
    [environment, holder, ttlMs],
  );
  const [row] = rows;
  return row ? { holder: row.holder, fence: Number(row.fence) } : null;
}

/** Gives the lease up at once (a holder that stops), so the next guard need not wait for it to lapse. */
export async function releaseLease(db: Queryable, environment: string, holder: string): Promise<void> {
  await db.query('UPDATE guard_leases SET expires_at = now() WHERE environment = $1 AND holder = $2', [environment, holder]);
}

/** Who holds the lease now, or null. */
export async function leaseHolder(db: Queryable, environment: string): Promise<(Lease & { expiresAt: Date }) | null> {
  const { rows } = await db.query<{ holder: string; fence: string; expires_at: Date }>('SELECT holder, fence, expires_at FROM guard_leases WHERE environment = $1 AND expires_at > now()', [environment]);
  const [row] = rows;
  return row ? { holder: row.holder, fence: Number(row.fence), expiresAt: row.expires_at } : null;
}
