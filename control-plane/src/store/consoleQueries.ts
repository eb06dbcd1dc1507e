// What the release console reads from the store besides the map and the health counts
// (control-plane/src/api/console/views.ts): the audit trail filtered by remote and actor, with the
// map each change made (so a view can say what changed), and who published each release and when.
import type { Queryable } from './database.ts';
import type { Rollout } from './rollouts.ts';

export interface AuditRow {
  id: number;
  mapVersion: number;
  at: Date;
  actor: string;
  action: string;
  remote: string | null;
  reason: string | null;
  /** The map the change made (null: an entry of another kind, a QA token's). */
  map: Rollout | null;
}

/** An environment's audit trail, newest first; `remote`, `actor` and `since` narrow it. */
export async function auditRows(
  db: Queryable,
  environment: string,
  { remote, actor, since, limit = 100 }: { remote?: string | undefined; actor?: string | undefined; since?: Date | undefined; limit?: number } = {},
): Promise<AuditRow[]> {
  const { rows } = await db.query<{ id: string; map_version: string; at: Date; actor: string; action: string; remote: string | null; reason: string | null; map: Rollout | null }>(
    `SELECT id, map_version, at, actor, action, remote, reason, map FROM audit
     WHERE environment = $1 AND ($2::text IS NULL OR remote = $2) AND ($3::text IS NULL OR actor = $3) AND ($4::timestamptz IS NULL OR at >= $4)
     ORDER BY id DESC LIMIT $5`,
    [environment, remote ?? null, actor ?? null, since ?? null, limit],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), mapVersion: Number(row.map_version) }));
}

/** Everyone who changed an environment's map, for the audit view's actor filter. */
export async function auditActors(db: Queryable, environment: string): Promise<string[]> {
  const { rows } = await db.query<{ actor: string }>('SELECT DISTINCT actor FROM audit WHERE environment = $1 ORDER BY actor', [environment]);
  return rows.map((row) => row.actor);
}

/** The environments that have a map. */
export async function environmentsWithMaps(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ environment: string }>('SELECT environment FROM rollouts ORDER BY environment');
  return rows.map((row) => row.environment);
}

export interface PublishedRelease {
  version: string;
  publishedAt: Date;
  publishedBy: string | null;
}

/** A remote's releases with when and by whom each was published (by = null: from a checkout). */
export async function publishedReleases(db: Queryable, remote: string): Promise<PublishedRelease[]> {
  const { rows } = await db.query<{ version: string; published_at: Date; published_by: string | null }>(
    'SELECT version, published_at, published_by FROM releases WHERE remote = $1 ORDER BY published_at DESC, version DESC',
    [remote],
  );
  return rows.map((row) => ({ version: row.version, publishedAt: row.published_at, publishedBy: row.published_by }));
}
