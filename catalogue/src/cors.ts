// Which browser origins may read the catalogue: any localhost origin by default (every dev
// server and the composed build run there), or an explicit list (NETNET_ALLOWED_ORIGINS).
import type { FastifyReply, FastifyRequest } from 'fastify';

export type OriginPolicy = (origin: string) => boolean;

const LOCALHOST = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

export function originPolicy(allowed: readonly string[] | undefined): OriginPolicy {
  if (!allowed || allowed.length === 0) return (origin) => LOCALHOST.test(origin);
  if (allowed.includes('*')) return () => true;
  const exact = new Set(allowed.map((origin) => origin.replace(/\/+$/, '')));
  return (origin) => exact.has(origin);
}

/** A comma-separated setting (origins, hosts); undefined when it lists nothing. */
export function parseList(value: string | undefined): string[] | undefined {
  const list = value?.split(',').map((origin) => origin.trim()).filter(Boolean);
  return list && list.length > 0 ? list : undefined;
}

/** Sets the CORS headers for an allowed origin. Returns true when the request was a preflight (answered). */
export function applyCors(request: FastifyRequest, reply: FastifyReply, allows: OriginPolicy): boolean {
  const origin = request.headers.origin;
  const allowed = typeof origin === 'string' && allows(origin);
  reply.header('Vary', 'Origin');
  if (allowed) {
    reply.header('Access-Control-Allow-Origin', origin);
    // The client reads Retry-After on 429; the player reads ranges.
    reply.header('Access-Control-Expose-Headers', 'Retry-After, ETag, Content-Range, Accept-Ranges');
  }
  if (request.method !== 'OPTIONS') return false;
  if (allowed) {
    reply.header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
    const requested = request.headers['access-control-request-headers'];
    if (typeof requested === 'string' && /^[\w\-, ]{0,500}$/.test(requested)) reply.header('Access-Control-Allow-Headers', requested);
    reply.header('Access-Control-Max-Age', '86400');
  }
  reply.code(204).send();
  return true;
}
