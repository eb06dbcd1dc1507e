// The control-plane API's tokens (docs/pipelines.md): one per team or
// pipeline, each scoped to remotes, environments and actions. A token reads
// `netnet_<name>_<secret>`: the name finds its row, and the SHA-256 of the 32 random bytes of
// the secret is compared with the stored one in constant time. The token itself is never stored;
// it is printed once, by `npm run tokens -- create`.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeployError } from '../errors.ts';
import { site } from '../site.ts';
import type { Queryable } from '../store/database.ts';

/** What a token may be allowed to do; each is one kind of API call. */
export const ACTIONS = ['publish', 'stable', 'canary', 'promote', 'rollback', 'pin', 'status'] as const;
export type Action = (typeof ACTIONS)[number];

/** Every remote, environment or action: '*' in a scope. */
export const ANY = '*';

export interface Scope {
  remotes: string[];
  environments: string[];
  actions: string[];
}

export interface TokenRecord extends Scope {
  name: string;
  /** A person's token: it signs in to the release console (./console/sessions.ts), never sent as a bearer. */
  person: boolean;
  created_at: Date;
  created_by: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

/** Who made an API call: the token's name and scope. */
export interface Caller extends Scope {
  name: string;
  /** What the audit trail and the releases table record: `token:<name>`, or `person:<name>` for a person's. */
  actor: string;
}

/** The actor a token's changes are recorded under. */
export const actorOf = (name: string, person: boolean): string => `${person ? 'person' : 'token'}:${name}`;

const NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
const ENVIRONMENT = /^[a-z0-9][a-z0-9-]{0,39}$/;
// netnet_<name>_<43 base64url characters: 32 bytes>
const TOKEN = /^netnet_([a-z0-9][a-z0-9-]{0,39})_([A-Za-z0-9_-]{43})$/;

const hashOf = (secret: string): Buffer => createHash('sha256').update(secret).digest();

const isAction = (value: string): value is Action => (ACTIONS as readonly string[]).includes(value);

/** A scope list from the command line ("remote-title,remote-search" or "*"), checked against what exists. */
export function parseList(kind: 'remotes' | 'environments' | 'actions', text: string | undefined): string[] {
  const items = [...new Set((text ?? '').split(',').map((item) => item.trim()).filter(Boolean))];
  if (items.length === 0) throw new DeployError(`--${kind} needs at least one value (or "*" for all).`);
  if (items.includes(ANY)) {
    if (items.length > 1) throw new DeployError(`--${kind}: "*" means all; give it alone.`);
    return [ANY];
  }
  for (const item of items) {
    if (kind === 'remotes' && !site.remotes.includes(item)) {
      throw new DeployError(`--remotes: unknown remote "${item}". Known remotes: ${site.remotes.join(', ')}.`);
    }
    if (kind === 'environments' && !ENVIRONMENT.test(item)) throw new DeployError(`--environments: "${item}" is not an environment name.`);
    if (kind === 'actions' && !isAction(item)) throw new DeployError(`--actions: unknown action "${item}". Actions: ${ACTIONS.join(', ')}.`);
  }
  return items;
}

const covers = (list: string[], item: string) => list.includes(ANY) || list.includes(item);

/**
 * Whether `caller` may do `action`; `remote` and `environment` where the call names them. A call
 * that changes every remote at once (the pin policy) names none: it needs a token for all remotes.
 * Publishing names no environment: a release is published once and rolled out per environment.
 */
export function allows(caller: Scope, action: Action, { remote, environment }: { remote?: string | null; environment?: string | null }): boolean {
  if (!covers(caller.actions, action)) return false;
  if (environment !== undefined && environment !== null && !covers(caller.environments, environment)) return false;
  if (remote === null) return caller.remotes.includes(ANY);
  return remote === undefined || covers(caller.remotes, remote);
}

/** The remotes of `all` a caller's scope covers. */
export const remotesIn = (caller: Scope, all: string[]): string[] => all.filter((remote) => covers(caller.remotes, remote));

/**
 * Makes a token; returns it (shown once: only its hash is kept). A person's token is never shown:
 * its holder signs in to the console with a link (./console/sessions.ts, createSignInLink).
 */
export async function createToken(db: Queryable, name: string, scope: Scope, createdBy: string, { person = false }: { person?: boolean } = {}): Promise<string> {
  if (!NAME.test(name)) throw new DeployError(`"${name}" is not a token name (lowercase letters, digits, "-", at most 40).`);
  const secret = randomBytes(32).toString('base64url');
  const { rowCount } = await db.query(
    `INSERT INTO api_tokens (name, secret_hash, remotes, environments, actions, created_by, person)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (name) DO NOTHING`,
    [name, hashOf(secret), scope.remotes, scope.environments, scope.actions, createdBy, person],
  );
  // A name is never reused, revoked or not: the audit trail names changes by it.
  if (rowCount === 0) throw new DeployError(`a token named "${name}" exists already (revoked ones too); choose another name.`);
  return `netnet_${name}_${secret}`;
}

/** Every token, revoked ones included, oldest first. */
export async function listTokens(db: Queryable): Promise<TokenRecord[]> {
  const { rows } = await db.query<TokenRecord>(
    'SELECT name, person, remotes, environments, actions, created_at, created_by, revoked_at, last_used_at FROM api_tokens ORDER BY created_at, name',
  );
  return rows;
}

/** Revokes a token at once: its next call gets 401, and its console sessions end with it. */
export async function revokeToken(db: Queryable, name: string): Promise<void> {
  const { rowCount } = await db.query('UPDATE api_tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL', [name]);
  if (rowCount === 0) {
    const { rowCount: exists } = await db.query('SELECT 1 FROM api_tokens WHERE name = $1', [name]);
    throw new DeployError(exists ? `the token "${name}" is revoked already.` : `there is no token named "${name}".`);
  }
}

/** The name a bearer token gives (its first part), if it has our form; its secret is never kept anywhere. */
export const tokenNameOf = (token: string | undefined): string | null => TOKEN.exec(token ?? '')?.[1] ?? null;

// Compared against when the name is unknown, so an unknown name costs what a wrong secret does.
const NOBODY = hashOf('no token has this secret');

/** The caller a bearer token stands for, or null (missing, malformed, unknown, wrong or revoked). */
export async function authenticate(db: Queryable, token: string | undefined): Promise<Caller | null> {
  const [, name, secret] = TOKEN.exec(token ?? '') ?? [];
  if (!name || !secret) return null;
  // One row whether the name is known or not (its columns null when not), so an unknown name
  // costs what a known one does: the same query, the same answer's shape, the same comparison.
  const { rows } = await db.query<{ [K in keyof Scope]: Scope[K] | null } & { secret_hash: Buffer | null; revoked_at: Date | null; person: boolean | null }>(
    `SELECT t.secret_hash, t.remotes, t.environments, t.actions, t.revoked_at, t.person
     FROM (SELECT $1::text AS name) AS asked LEFT JOIN api_tokens AS t ON t.name = asked.name`,
    [name],
  );
  const [row] = rows;
  const matches = timingSafeEqual(hashOf(secret), row?.secret_hash?.length === 32 ? row.secret_hash : NOBODY);
  if (!row?.secret_hash || !matches || row.revoked_at !== null || !row.remotes || !row.environments || !row.actions) return null;
  // When it was last used, for `tokens list` (which ones a team still needs).
  await db.query('UPDATE api_tokens SET last_used_at = now() WHERE name = $1', [name]);
  return { name, actor: actorOf(name, row.person === true), remotes: row.remotes, environments: row.environments, actions: row.actions };
}
