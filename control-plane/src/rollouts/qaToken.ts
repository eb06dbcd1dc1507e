// Signed QA tokens: in a production environment, /remotes.json lists versions QA may pin only
// for a request that carries one (and a dev pin needs one everywhere). A token is
// `<expiry in epoch seconds>.<id>.<HMAC-SHA256>`, signed with NETNET_QA_SECRET for one environment;
// the secret stays on the server that builds the map. The id names the token's row in the store
// (control-plane/src/store/qaTokens.ts: who it was made for, revoked or not): a token is honoured
// only while that row stands, so one can be revoked without rotating the secret.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { cookieValue, variable } from '@netnet/server-kit';
import { z } from 'zod';

/** The secret, read by the servers that build /remotes.json and by the command that makes tokens. */
export const QA_SECRET_VARIABLES = {
  qaSecret: variable(
    'NETNET_QA_SECRET',
    z.string().optional(),
    'the secret QA tokens are signed (npm run qa-token) and checked with, server side only; unset, a production environment has no pins',
  ),
};

/** The longest a token may live: a leaked link stops working within a day. */
export const MAX_TOKEN_HOURS = 24;

const TOKEN = /^(\d{10})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

const signature = (secret: string, environment: string, expires: number, id: string) =>
  createHmac('sha256', secret).update(`netnet-qa:${environment}:${expires}:${id}`).digest('base64url');

/**
 * A new token's id: 128 random bits, never starting with "-". One in 64 did, and a command line
 * took it for an option (`npm run qa-token -- revoke -2x…`: "Unknown option").
 */
export function newQaTokenId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

export function signQaToken({ secret, environment, id, expires }: { secret: string | undefined; environment: string; id: string; expires: Date }): string {
  if (!secret) throw new Error('NETNET_QA_SECRET is not set.');
  const seconds = Math.floor(expires.getTime() / 1000);
  return `${seconds}.${id}.${signature(secret, environment, seconds, id)}`;
}

/**
 * True only for a well-formed, unexpired token signed for this environment with this secret whose
 * id is among `standing` (the environment's recorded, unrevoked tokens).
 */
export function verifyQaToken(
  token: unknown,
  { secret, environment, standing, now = Date.now() }: { secret: string | undefined; environment: string; standing: ReadonlySet<string>; now?: number },
): boolean {
  if (!secret || typeof token !== 'string') return false;
  const match = TOKEN.exec(token);
  if (!match?.[1] || !match[2] || !match[3]) return false;
  const expires = Number(match[1]);
  const seconds = now / 1000;
  if (expires <= seconds || expires > seconds + MAX_TOKEN_HOURS * 3600) return false;
  const expected = Buffer.from(signature(secret, environment, expires, match[2]));
  const given = Buffer.from(match[3]);
  return expected.length === given.length && timingSafeEqual(expected, given) && standing.has(match[2]);
}

/** The address parameter a QA link carries its token in, and the HttpOnly cookie the server moves it to. */
export const QA_TOKEN_PARAM = 'qa-token';
export const QA_TOKEN_COOKIE = 'netnet-qa';

/** The QA token a request's cookie holds, if well-formed (valid or not is verifyQaToken's to say). */
export function qaTokenFromCookie(header: string | string[] | undefined): string | null {
  const value = cookieValue(header, QA_TOKEN_COOKIE);
  return value !== null && TOKEN.test(value) ? value : null;
}

/**
 * A page address with `?qa-token=…` is answered with a redirect before the page loads anything
 * (docs/releases.md, "QA pins"): to the same address without the token (and without the dev-server
 * pins the same answer stores in their cookie), the token moved into an HttpOnly cookie for its
 * life. So no later request carries it in its address or its Referer, no page script can read it,
 * and a log of addresses holds it at most once. null when the address carries no token.
 */
export function qaTokenRedirect(url: string, { secure = false, now = Date.now(), isDevPin = () => false }: { secure?: boolean; now?: number; isDevPin?: (key: string, value: string) => boolean } = {}): { location: string; cookies: string[] } | null {
  const parsed = new URL(url, 'http://netnet.invalid');
  const offered = parsed.searchParams.getAll(QA_TOKEN_PARAM);
  if (offered.length === 0) return null;
  const kept = new URLSearchParams();
  for (const [key, value] of parsed.searchParams) if (key !== QA_TOKEN_PARAM && !isDevPin(key, value)) kept.set(key, value);
  const query = kept.toString();
  const token = offered.find((value) => TOKEN.test(value));
  const cookies: string[] = [];
  if (token !== undefined) {
    const maxAge = Math.max(0, Math.min(Number(TOKEN.exec(token)?.[1]) - Math.floor(now / 1000), MAX_TOKEN_HOURS * 3600));
    cookies.push(`${QA_TOKEN_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
  }
  return { location: `${parsed.pathname}${query ? `?${query}` : ''}${parsed.hash}`, cookies };
}
