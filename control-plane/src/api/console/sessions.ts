// Who is using the release console (docs/releases.md, "A release owner's day in the console"). An
// administrator makes a person's token (`npm run tokens -- create <name> … --person`), which prints
// a one-time sign-in link; the console trades the link's secret for a session: an HttpOnly,
// SameSite=Strict cookie that expires, and a CSRF secret the console sends back in a header with
// every change. The session speaks for its token: its scope, and revoking the token ends it.
// Only SHA-256 hashes of the link's and the session's secrets are stored (migration 005).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { cookieValue, variable } from '@netnet/server-kit';
import { z } from 'zod';
import type { Queryable } from '../../store/database.ts';
import { endSessionRow, insertSession, insertSignInLink, liveSession, tokenKind, useSignInLink } from '../../store/tokens.ts';
import { actorOf, type Caller } from '../tokens.ts';

export const SESSION_COOKIE = 'netnet-console';
export const CSRF_HEADER = 'x-netnet-csrf';
/** How long a sign-in link can be used (once). */
export const LINK_HOURS = 24;
/** How long a session lasts: a working day. */
export const SESSION_HOURS = 8;

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** Read by the command that prints sign-in links (npm run tokens). */
export const CONSOLE_URL_VARIABLES = {
  consoleUrl: variable(
    'NETNET_CONSOLE_URL',
    z.url({ protocol: /^https?$/, error: 'not an http(s) URL' }).optional(),
    "where people open the release console, which the sign-in links npm run tokens prints point to (default the API's own http://127.0.0.1:<NETNET_CONTROL_PORT>/console/)",
  ),
};

const hashOf = (secret: string): Buffer => createHash('sha256').update(secret).digest();
const newSecret = () => randomBytes(32).toString('base64url');

/** Where people open the console: `configured` (NETNET_CONSOLE_URL), else the API's own /console/ on `port`. */
export function consoleUrl(port: number, configured: string | undefined): string {
  return configured ? configured.replace(/\/?$/, '/') : `http://127.0.0.1:${port}/console/`;
}

/**
 * A one-time sign-in link for a person's token. The secret rides in the fragment, which browsers
 * never send to a server, so it reaches no log or Referer; the console's page posts it.
 */
export async function createSignInLink(db: Queryable, token: string, base: string): Promise<string> {
  const row = await tokenKind(db, token);
  if (!row) throw new Error(`there is no token named "${token}".`);
  if (!row.person) throw new Error(`"${token}" is a pipeline's token, not a person's: it cannot sign in to the console.`);
  if (row.revoked_at) throw new Error(`the token "${token}" is revoked.`);
  const secret = newSecret();
  await insertSignInLink(db, hashOf(secret), token, LINK_HOURS);
  return `${base}#sign-in=${secret}`;
}

export interface Session {
  caller: Caller;
  csrf: string;
  expiresAt: Date;
}

/** Trades a sign-in link's secret for a new session; null if the link is unknown, used, expired or its token revoked. */
export async function exchangeLink(db: Queryable, secret: unknown): Promise<{ cookie: string; session: Session } | null> {
  if (typeof secret !== 'string' || !SECRET.test(secret)) return null;
  // One statement marks the link used: two tabs racing with one link get one session.
  const token = await useSignInLink(db, hashOf(secret));
  if (token === null) return null;
  const cookie = newSecret();
  await insertSession(db, { secretHash: hashOf(cookie), token, csrf: newSecret(), hours: SESSION_HOURS });
  const session = await sessionOf(db, cookie);
  return session ? { cookie, session } : null;
}

/** The session a cookie's secret stands for: live, unexpired, its token not revoked. */
export async function sessionOf(db: Queryable, secret: string | undefined): Promise<Session | null> {
  if (!secret || !SECRET.test(secret)) return null;
  const row = await liveSession(db, hashOf(secret));
  if (!row) return null;
  return {
    caller: { name: row.name, actor: actorOf(row.name, row.person), remotes: row.remotes, environments: row.environments, actions: row.actions },
    csrf: row.csrf,
    expiresAt: row.expires_at,
  };
}

/** Signs out: the cookie's session ends now. */
export async function endSession(db: Queryable, secret: string | undefined): Promise<void> {
  if (secret && SECRET.test(secret)) await endSessionRow(db, hashOf(secret));
}

/** The console's session cookie from a request's Cookie header. */
export function sessionCookie(req: http.IncomingMessage): string | undefined {
  return cookieValue(req.headers.cookie, SESSION_COOKIE) ?? undefined;
}

/**
 * The Set-Cookie value for a session (or, with no secret, one that clears it). `secure` when the
 * console is reached over HTTPS; on http://127.0.0.1 a Secure cookie would not be sent back.
 */
export function setCookie(secret: string | null, { secure }: { secure: boolean }): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Strict', secret ? `Max-Age=${SESSION_HOURS * 3600}` : 'Max-Age=0', ...(secure ? ['Secure'] : [])];
  return [`${SESSION_COOKIE}=${secret ?? ''}`, ...attributes].join('; ');
}

/**
 * Why a change made with a session cookie is refused, or null when it may go ahead: it must carry
 * the session's CSRF secret in X-Netnet-CSRF (a page elsewhere cannot read it), and an Origin, if
 * the browser sent one, must be the console's own.
 */
export function csrfProblem(req: http.IncomingMessage, session: Pick<Session, 'csrf'>): string | null {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}` && origin !== `https://${req.headers.host}`) {
    return `a change from ${origin} is refused: the console changes things only from its own page.`;
  }
  const sent = req.headers[CSRF_HEADER];
  const given = Buffer.from(typeof sent === 'string' ? sent : '');
  const expected = Buffer.from(session.csrf);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return 'a change needs the console\'s CSRF token (X-Netnet-CSRF); reload the console and try again.';
  }
  return null;
}
