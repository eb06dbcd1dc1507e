// The QA tokens the CLI made (docs/releases.md, "QA pins"): who each was made for, when it ends,
// whether it was revoked. The signed token carries only its id; an instance honours it while its
// row stands (recorded for the instance's environment, not revoked, not expired).
import type { Queryable } from './database.ts';

/** The database notifies this channel (payload: the environment) when a QA token is made or revoked. */
export const QA_TOKENS_CHANNEL = 'netnet_qa_tokens';

export interface QaTokenRecord {
  id: string;
  environment: string;
  madeFor: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export async function recordQaToken(db: Queryable, token: { id: string; environment: string; madeFor: string; createdBy: string; expiresAt: Date }): Promise<void> {
  await db.query('INSERT INTO qa_tokens (id, environment, made_for, created_by, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    token.id,
    token.environment,
    token.madeFor,
    token.createdBy,
    token.expiresAt,
  ]);
}

/** True when the token stood until now; false when there is no such token or it was revoked already. */
export async function revokeQaToken(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE qa_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
  return (rowCount ?? 0) > 0;
}

/** The environment's QA tokens, newest first, expired ones of the last week included. */
export async function listQaTokens(db: Queryable, environment: string): Promise<QaTokenRecord[]> {
  const { rows } = await db.query<{ id: string; environment: string; made_for: string; created_by: string; created_at: Date; expires_at: Date; revoked_at: Date | null }>(
    "SELECT * FROM qa_tokens WHERE environment = $1 AND expires_at > now() - interval '7 days' ORDER BY created_at DESC",
    [environment],
  );
  return rows.map((row) => ({ id: row.id, environment: row.environment, madeFor: row.made_for, createdBy: row.created_by, createdAt: row.created_at, expiresAt: row.expires_at, revokedAt: row.revoked_at }));
}

/** The ids of the environment's QA tokens that stand now: what an instance honours. */
export async function standingQaTokens(db: Queryable, environment: string): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM qa_tokens WHERE environment = $1 AND revoked_at IS NULL AND expires_at > now()', [environment]);
  return new Set(rows.map((row) => row.id));
}
