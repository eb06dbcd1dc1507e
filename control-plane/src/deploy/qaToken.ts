// Signed QA tokens: in a production environment, /remotes.json lists versions QA may pin only
// for a request that carries one. A token is `<expiry in epoch seconds>.<HMAC-SHA256>`, signed
// with NETNET_QA_SECRET for one environment; the secret stays on the server that builds the map.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The longest a token may live: a leaked link stops working within a day. */
export const MAX_TOKEN_HOURS = 24;

const TOKEN = /^(\d{10})\.([A-Za-z0-9_-]{43})$/;

const signature = (secret: string, environment: string, expires: number) =>
  createHmac('sha256', secret).update(`netnet-qa:${environment}:${expires}`).digest('base64url');

export function signQaToken({ secret, environment, hours, now = Date.now() }: { secret: string | undefined; environment: string; hours: number; now?: number }): string {
  if (!secret) throw new Error('NETNET_QA_SECRET is not set.');
  const expires = Math.floor(now / 1000 + hours * 3600);
  return `${expires}.${signature(secret, environment, expires)}`;
}

/** True only for a well-formed, unexpired token signed for this environment with this secret. */
export function verifyQaToken(token: unknown, { secret, environment, now = Date.now() }: { secret: string | undefined; environment: string; now?: number }): boolean {
  if (!secret || typeof token !== 'string') return false;
  const match = TOKEN.exec(token);
  if (!match?.[1] || !match[2]) return false;
  const expires = Number(match[1]);
  const seconds = now / 1000;
  if (expires <= seconds || expires > seconds + MAX_TOKEN_HOURS * 3600) return false;
  const expected = Buffer.from(signature(secret, environment, expires));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
