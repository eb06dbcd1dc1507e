// Proxy mode: the same /3/ paths answered by the real TMDB, with the API key added here so it
// never reaches a browser. Only the route's own parameters are forwarded (see readQuery), so junk
// parameters neither reach TMDB nor split the cache. Responses are cached (TTL, bounded),
// concurrent identical requests share one upstream fetch, and each client may start only so many
// upstream fetches (cached answers are free).
import type { OutgoingHttpHeaders } from 'node:http';
import { createLogger, type Logger, createRateLimit, type Rate } from '@netnet/server-kit';
import { Body, CACHE_LISTS, JSON_TYPE } from './http';
import { errorJson, errors, type TmdbError } from './errors';
import { keyBytes, Lru } from './lru';
import { routePath, type Query, type Route } from './routes/match';

export interface ProxyOptions {
  apiKey: string;
  /** Default https://api.themoviedb.org (no trailing /3). */
  upstream: string;
  timeoutMs?: number;
  ttlMs?: number;
  maxEntries?: number;
  maxBytes?: number;
  /** Per client (by address); default 40 at once, then 4 a second. */
  clientRateLimit?: Rate;
  /** Injectable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Where upstream failures are reported (never with the key or the upstream URL). */
  logger?: Logger;
}

export interface ProxyAnswer {
  status: number;
  body: Body;
  headers: OutgoingHttpHeaders;
}

/** `client` names who asks (its address), for the rate limit. */
export type Proxy = (route: Route, query: Query, client: string) => Promise<ProxyAnswer>;

export const DEFAULT_CLIENT_RATE_LIMIT: Rate = { burst: 40, perSecond: 4 };

/** TMDB's v4 read-access tokens are JWTs and go in a header; v3 keys go in the query. */
const isBearerToken = (key: string) => key.startsWith('eyJ');

export function createProxy(options: ProxyOptions): Proxy {
  const { apiKey, timeoutMs = 8000, ttlMs = 5 * 60_000, maxEntries = 1000, maxBytes = 64 * 1024 * 1024 } = options;
  const upstream = options.upstream.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? fetch;
  const logger = options.logger ?? createLogger('catalogue');
  const cache = new Lru<string, ProxyAnswer>({ maxEntries, ttlMs, maxBytes, sizeOf: (a, key) => a.body.bytes + keyBytes(key) });
  const limiter = createRateLimit(options.clientRateLimit ?? DEFAULT_CLIENT_RATE_LIMIT);
  const inFlight = new Map<string, Promise<ProxyAnswer>>();

  /** Removes the key from anything headed for the client, whatever upstream put in it. */
  const scrub = (text: string) => (apiKey ? text.split(apiKey).join('[redacted]') : text);

  const failure = (error: TmdbError, headers: OutgoingHttpHeaders = {}): ProxyAnswer => ({
    status: error.httpStatus,
    body: new Body(errorJson(error), JSON_TYPE),
    headers: { 'Cache-Control': 'no-store', ...headers },
  });

  async function fetchUpstream(pathAndQuery: string): Promise<ProxyAnswer> {
    const bearer = isBearerToken(apiKey);
    const separator = pathAndQuery.includes('?') ? '&' : '?';
    const url = `${upstream}/3/${pathAndQuery}${bearer ? '' : `${separator}api_key=${encodeURIComponent(apiKey)}`}`;
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const response = await fetchImpl(url, {
        headers: { Accept: 'application/json', ...(bearer ? { Authorization: `Bearer ${apiKey}` } : {}) },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (error) {
      // By name, not instanceof: fetch's DOMException may come from another realm.
      const name = (error as { name?: unknown } | null)?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      // The error may quote the URL, which holds the key: report its kind only.
      logger.warn({ path: `/3/${pathAndQuery.split('?')[0]}` }, `catalogue proxy: upstream ${timedOut ? 'timed out' : 'unreachable'}`);
      return failure(timedOut ? errors.gatewayTimeout : errors.badGateway);
    }

    if (status >= 500) return failure(errors.badGateway);
    if (!isJson(text)) return failure(errors.badGateway);
    const body = new Body(scrub(text), JSON_TYPE);
    if (status === 429) {
      const seconds = retryAfter && /^\d{1,4}$/.test(retryAfter) ? retryAfter : '1';
      return { status, body, headers: { 'Cache-Control': 'no-store', 'Retry-After': seconds } };
    }
    if (status !== 200) return { status, body, headers: { 'Cache-Control': 'no-store' } };
    const answer = { status, body, headers: { 'Cache-Control': CACHE_LISTS } };
    cache.set(pathAndQuery, answer);
    return answer;
  }

  return function proxy(route, query, client) {
    const forwarded = query.forwarded.toString();
    const pathAndQuery = `${routePath(route)}${forwarded ? `?${forwarded}` : ''}`;
    const cached = cache.get(pathAndQuery);
    if (cached) return Promise.resolve(cached);
    let pending = inFlight.get(pathAndQuery);
    if (!pending) {
      const wait = limiter.take(client);
      if (wait > 0) return Promise.resolve(failure(errors.rateLimited, { 'Retry-After': String(wait) }));
      pending = fetchUpstream(pathAndQuery).finally(() => inFlight.delete(pathAndQuery));
      inFlight.set(pathAndQuery, pending);
    }
    return pending;
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
