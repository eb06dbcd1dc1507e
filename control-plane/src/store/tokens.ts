// The statements on the control-plane API's tokens and the release console's links and sessions
// (migrations 003 and 005). Only hashes of secrets are ever written; what a token may do, and how
// a secret is checked, is api/tokens.ts's and api/console/sessions.ts's to say.
import type { Queryable } from './database.ts';

/** Where a token (or a console session, which speaks for one) may act. */
export interface Scope {
  remotes: string[];
  environments: string[];
  actions: string[];
}

export interface TokenRecord extends Scope {
  name: string;
  /** A person's token: it signs in to the release console, never sent as a bearer. */
  person: boolean;
  created_at: Date;
  created_by: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** Adds a token; false when the name is taken (revoked ones included: a name is never reused). */
export async function insertToken(db: Queryable, token: { name: string; secretHash: Buffer; scope: Scope; createdBy: string; person: boolean }): Promise<boolean> {
  const { name, secretHash, scope, createdBy, person } = token;
  const { rowCount } = await db.query(
    `INSERT INTO api_tokens (name, secret_hash, remotes, environments, actions, created_by, person)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (name) DO NOTHING`,
    [name, secretHash, scope.remotes, scope.environments, scope.actions, createdBy, person],
  );
  return rowCount === 1;
}

/** Every token, revoked ones included, oldest first. */
export async function listTokens(db: Queryable): Promise<TokenRecord[]> {
  const { rows } = await db.query<TokenRecord>(
    'SELECT name, person, remotes, environments, actions, created_at, created_by, revoked_at, last_used_at FROM api_tokens ORDER BY created_at, name',
  );
  return rows;
}

/** Revokes a token now: 'revoked', or why not. */
export async function revokeTokenRow(db: Queryable, name: string): Promise<'revoked' | 'already' | 'unknown'> {
  const { rowCount } = await db.query('UPDATE api_tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL', [name]);
  if (rowCount === 1) return 'revoked';
  const { rowCount: exists } = await db.query('SELECT 1 FROM api_tokens WHERE name = $1', [name]);
  return exists ? 'already' : 'unknown';
}

export type TokenRow = { [K in keyof Scope]: Scope[K] | null } & { secret_hash: Buffer | null; revoked_at: Date | null; person: boolean | null };

/**
 * The token named `name`: one row whether the name is known or not (its columns null when not), so
 * an unknown name costs what a known one does: the same query and the same answer's shape.
 */
export async function tokenNamed(db: Queryable, name: string): Promise<TokenRow | undefined> {
  const { rows } = await db.query<TokenRow>(
    `SELECT t.secret_hash, t.remotes, t.environments, t.actions, t.revoked_at, t.person
     FROM (SELECT $1::text AS name) AS asked LEFT JOIN api_tokens AS t ON t.name = asked.name`,
    [name],
  );
  return rows[0];
}

/** When a token was last used, for `tokens list`. */
export async function markTokenUsed(db: Queryable, name: string): Promise<void> {
  await db.query('UPDATE api_tokens SET last_used_at = now() WHERE name = $1', [name]);
}

/** Whether a token is a person's, and revoked; undefined when there is none of that name. */
export async function tokenKind(db: Queryable, name: string): Promise<{ person: boolean; revoked_at: Date | null } | undefined> {
  const { rows } = await db.query<{ person: boolean; revoked_at: Date | null }>('SELECT person, revoked_at FROM api_tokens WHERE name = $1', [name]);
  return rows[0];
}

/** A one-time console sign-in link for a token, by its secret's hash. */
export async function insertSignInLink(db: Queryable, secretHash: Buffer, token: string, hours: number): Promise<void> {
  await db.query(`INSERT INTO console_links (secret_hash, token, expires_at) VALUES ($1, $2, now() + make_interval(hours => $3))`, [secretHash, token, hours]);
}

/**
 * Marks a link used in one statement (two tabs racing with one link get one session): its token,
 * or null when the link is unknown, used, expired or its token revoked.
 */
export async function useSignInLink(db: Queryable, secretHash: Buffer): Promise<string | null> {
  const { rows } = await db.query<{ token: string }>(
    `UPDATE console_links l SET used_at = now()
     FROM api_tokens t
     WHERE l.secret_hash = $1 AND l.used_at IS NULL AND l.expires_at > now() AND t.name = l.token AND t.revoked_at IS NULL
     RETURNING l.token`,
    [secretHash],
  );
  return rows[0]?.token ?? null;
}

export async function insertSession(db: Queryable, session: { secretHash: Buffer; token: string; csrf: string; hours: number }): Promise<void> {
  await db.query(`INSERT INTO console_sessions (secret_hash, token, csrf, expires_at) VALUES ($1, $2, $3, now() + make_interval(hours => $4))`, [
    session.secretHash,
    session.token,
    session.csrf,
    session.hours,
  ]);
}

/** A live session by its secret's hash: unended, unexpired, its token not revoked. */
export async function liveSession(db: Queryable, secretHash: Buffer): Promise<(Scope & { name: string; person: boolean; csrf: string; expires_at: Date }) | undefined> {
  const { rows } = await db.query<Scope & { name: string; person: boolean; csrf: string; expires_at: Date }>(
    `SELECT t.name, t.person, t.remotes, t.environments, t.actions, s.csrf, s.expires_at
     FROM console_sessions s JOIN api_tokens t ON t.name = s.token
     WHERE s.secret_hash = $1 AND s.ended_at IS NULL AND s.expires_at > now() AND t.revoked_at IS NULL`,
    [secretHash],
  );
  return rows[0];
}

export async function endSessionRow(db: Queryable, secretHash: Buffer): Promise<void> {
  await db.query('UPDATE console_sessions SET ended_at = now() WHERE secret_hash = $1 AND ended_at IS NULL', [secretHash]);
}

/** A call the API refused, with the token name tried (never its secret) and the caller's address. */
export async function insertRefusal(db: Queryable, call: { status: number; tokenName: string | null; address: string; method: string; path: string; reason: string }): Promise<void> {
  await db.query('INSERT INTO refused_calls (status, token_name, address, method, path, reason) VALUES ($1, $2, $3, $4, $5, $6)', [
    call.status,
    call.tokenName,
    call.address,
    call.method,
    call.path,
    call.reason,
  ]);
}
