// The control-plane API's tokens (docs/pipelines.md): one per team or
// pipeline, each scoped to remotes, environments and actions. A token reads
// `netnet_<name>_<secret>`: the name finds its row, and the SHA-256 of the 32 random bytes of
// the secret is compared with the stored one in constant time. The token itself is never stored;
// it is printed once, by `npm run tokens -- create`.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeployError } from '../errors.ts';
import site from '@netnet/site';
import type { Queryable } from '../store/database.ts';
import { insertToken, markTokenUsed, revokeTokenRow, tokenNamed, type Scope } from '../store/tokens.ts';

export { listTokens, type Scope, type TokenRecord } from '../store/tokens.ts';

/** What a token may be allowed to do; each is one kind of API call. */
export const ACTIONS = ['publish', 'stable', 'canary', 'promote', 'rollback', 'pin', 'status'] as const;
export type Action = (typeof ACTIONS)[number];

/** Every remote, environment or action: '*' in a scope. */
export const ANY = '*';

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
  // A name is never reused, revoked or not: the audit trail names changes by it.
  if (!(await insertToken(db, { name, secretHash: hashOf(secret), scope, createdBy, person }))) throw new DeployError(`a token named "${name}" exists already (revoked ones too); choose another name.`);
  return `netnet_${name}_${secret}`;
}

/** Revokes a token at once: its next call gets 401, and its console sessions end with it. */
export async function revokeToken(db: Queryable, name: string): Promise<void> {
  const revoked = await revokeTokenRow(db, name);
  if (revoked === 'already') throw new DeployError(`the token "${name}" is revoked already.`);
  if (revoked === 'unknown') throw new DeployError(`there is no token named "${name}".`);
}

/** The name a bearer token gives (its first part), if it has our form; its secret is never kept anywhere. */
export const tokenNameOf = (token: string | undefined): string | null => TOKEN.exec(token ?? '')?.[1] ?? null;

// Compared against when the name is unknown, so an unknown name costs what a wrong secret does.
const NOBODY = hashOf('no token has this secret');

/** The caller a bearer token stands for, or null (missing, malformed, unknown, wrong or revoked). */
export async function authenticate(db: Queryable, token: string | undefined): Promise<Caller | null> {
  const [, name, secret] = TOKEN.exec(token ?? '') ?? [];
  if (!name || !secret) return null;
  // An unknown name costs what a known one does: the same query, and the same comparison.
  const row = await tokenNamed(db, name);
  const matches = timingSafeEqual(hashOf(secret), row?.secret_hash?.length === 32 ? row.secret_hash : NOBODY);
  if (!row?.secret_hash || !matches || row.revoked_at !== null || !row.remotes || !row.environments || !row.actions) return null;
  // When it was last used, for `tokens list` (which ones a team still needs).
  await markTokenUsed(db, name);
  return { name, actor: actorOf(name, row.person === true), remotes: row.remotes, environments: row.environments, actions: row.actions };
}
