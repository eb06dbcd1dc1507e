// The catalogue service: a Fastify app answering TMDB v3 paths under /3/, artwork under /t/p/, the
// demo clip under /media/ — from generated data, or from TMDB through the proxy. The connection
// limits and deadlines are the site's own (@netnet/server-kit, docs/limits.md).
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  CONNECTION_LIMITS,
  clientAddress,
  createLogger,
  limitConnections,
  loggerOptions,
  parseTrustedProxies,
  serverOptions,
} from '@netnet/server-kit';
import { applyCors, originPolicy, type OriginPolicy } from './cors';
import { generateCatalogue } from './data/generate';
import { prepareSearch } from './data/search';
import { parseToday, type Catalogue } from './data/model';
import { hash32 } from './data/random';
import { HttpError, errors } from './errors';
import { Body, CACHE_IMMUTABLE, CACHE_LISTS, JSON_TYPE, send, sendError } from './http';
import { findArtwork, isImageSize, renderArtwork } from './images';
import { keyBytes, Lru } from './lru';
import { createMediaHandler, DEFAULT_MEDIA_DIR } from './media';
import { createProxy, type Proxy } from './proxy';
import type { Rate,
  ConnectionLimits,
  Logger,
  TrustedProxies } from '@netnet/server-kit';
import { answer } from './routes/embedded';
import { matchRoute, readQuery } from './routes/match';

export interface CatalogueServerOptions {
  /** Number of generated titles (embedded mode). Default 3000. */
  size?: number;
  seed?: number;
  /** Proxy mode when set: requests go to TMDB with this key, added server-side. */
  tmdbApiKey?: string;
  /** TMDB API base for proxy mode. Default https://api.themoviedb.org. */
  upstream?: string;
  /** TMDB image host for proxy mode. Default https://image.tmdb.org. */
  imageUpstream?: string;
  /** This service's origin as browsers reach it (for clip URLs). Without it, see publicHosts. */
  publicUrl?: string;
  /**
   * Host header values (`name` or `name:port`) trusted to name this service in clip URLs, besides
   * localhost, 127.0.0.1 and [::1] on any port. Any other Host is ignored: the clip URL then names
   * the address the request came in on.
   */
  publicHosts?: readonly string[];
  /** Exact allowed origins ('*' for any); default: any localhost origin. */
  allowedOrigins?: readonly string[];
  /** 'YYYY-MM-DD' or a Date; decides which titles are upcoming. Default: the real today. */
  today?: Date | string;
  mediaDir?: string;
  upstreamTimeoutMs?: number;
  proxyCacheTtlMs?: number;
  proxyCacheMaxEntries?: number;
  /** Proxy mode: upstream fetches each client (by address) may start. */
  clientRateLimit?: Rate;
  /** Connection limits and deadlines (@netnet/server-kit); CONNECTION_LIMITS by default. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Front doors that connect for many clients: exempt from the connection cap, and believed about who the client is. None by default. */
  trustedProxies?: TrustedProxies;
  /** Injectable for tests (proxy mode). */
  fetch?: typeof fetch;
  logger?: Logger;
}

export const DEFAULT_SIZE = 3000;
export const DEFAULT_SEED = 20240604;
const LIST_HEADERS = { 'Cache-Control': CACHE_LISTS };
// A clip URL taken from the Host header differs per Host: shared caches must keep them apart.
const VIDEO_HEADERS = { ...LIST_HEADERS, Vary: 'Host' };

export interface CatalogueServer {
  readonly app: FastifyInstance;
  readonly catalogueInfo: { mode: 'embedded' | 'proxy'; titles: number; upstream?: string };
  /** The embedded answer cache: entries and their bytes (bodies and keys). */
  cacheStats(): { entries: number; bytes: number };
}

export function createCatalogueServer(options: CatalogueServerOptions = {}): CatalogueServer {
  const logger = options.logger ?? createLogger('catalogue');
  const allows = originPolicy(options.allowedOrigins);
  const trusted = options.trustedProxies ?? parseTrustedProxies();
  const serveMedia = createMediaHandler(options.mediaDir ?? DEFAULT_MEDIA_DIR);
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  const upstream = options.upstream ?? 'https://api.themoviedb.org';
  const imageUpstream = (options.imageUpstream ?? 'https://image.tmdb.org').replace(/\/+$/, '');

  const proxy: Proxy | null = options.tmdbApiKey
    ? createProxy({
        apiKey: options.tmdbApiKey,
        upstream,
        timeoutMs: options.upstreamTimeoutMs,
        ttlMs: options.proxyCacheTtlMs,
        maxEntries: options.proxyCacheMaxEntries,
        clientRateLimit: options.clientRateLimit,
        fetch: options.fetch,
        logger,
      })
    : null;
  const catalogue: Catalogue | null = proxy
    ? null
    : generateCatalogue({ size: options.size ?? DEFAULT_SIZE, seed: options.seed ?? DEFAULT_SEED, today: parseToday(options.today) });

  // Embedded answers are pure functions of their key — the route and the parameters it reads,
  // never the raw URL, so junk parameters cannot add entries. Within this process a key always
  // gives the same body, so the key (salted per process) is a valid ETag.
  const instance = randomBytes(4).toString('hex');
  const bodies = new Lru<string, Body>({ maxEntries: 5000, maxBytes: 96 * 1024 * 1024, sizeOf: (b, key) => b.bytes + keyBytes(key) });
  const artwork = new Lru<string, Body>({ maxEntries: 2000, maxBytes: 32 * 1024 * 1024, sizeOf: (b, key) => b.bytes + keyBytes(key) });
  const trustsHost = hostPolicy(options.publicHosts);

  /** The origin clip URLs name; `varies` when it came from the Host header. */
  const originOf = (request: FastifyRequest): { origin: string; varies: boolean } => {
    if (publicUrl) return { origin: publicUrl, varies: false };
    const host = request.headers.host;
    if (host && trustsHost(host)) return { origin: `http://${host.toLowerCase()}`, varies: true };
    // Not the Host a client made up: the address this request actually reached.
    const { localAddress = '127.0.0.1', localPort } = request.raw.socket;
    return { origin: `http://${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`, varies: true };
  };

  const limits = { ...CONNECTION_LIMITS, ...options.connectionLimits };
  const app = Fastify({
    ...serverOptions(limits),
    ...loggerOptions(logger),
    // Stopping closes every connection at once, as before Fastify: the process is going away.
    forceCloseConnections: true,
    // The routes read their parameters with URLSearchParams' rules (routes/match.ts), parsed once.
    routerOptions: { querystringParser: (search: string) => new URLSearchParams(search) as unknown as Record<string, unknown> },
    // A request line may name the whole URL (RFC 9112 §3.2.2: what a client talking to a proxy sends).
    rewriteUrl: (req) => absoluteFormPath(req.url ?? '/'),
    // A URL the router cannot read (a broken %-escape, an over-long segment) is a path TMDB does not have.
    frameworkErrors: (_error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (!answersBeforeRouting(request, reply, allows)) sendError(request, reply, errors.notFound);
    },
  });
  limitConnections(app, limits, { trusted });

  app.addHook('onRequest', (request, reply, done) => {
    answersBeforeRouting(request, reply, allows);
    done();
  });

  // Handlers answer at once where they can: a promise per request is a cost a cached path notices.
  app.get('/3/*', (request, reply) => {
    // The path as sent, not the router's decoded copy: TMDB's paths have no escapes, so an escaped
    // segment (`movie%2Fpopular`) is no route.
    const end = request.url.search(/[?#]/);
    const route = matchRoute(request.url.slice(3, end === -1 ? undefined : end));
    const query = readQuery(route, request.query as URLSearchParams);
    if (proxy) {
      return proxy(route, query, clientAddress(request.raw, trusted)).then(({ status, body, headers }) => {
        send(request, reply, status, body, headers);
      });
    }
    const { origin, varies } = originOf(request);
    const { key, build } = answer(catalogue!, route, { query, origin });
    let body = bodies.get(key);
    if (!body) {
      body = new Body(build(), JSON_TYPE, `"${instance}-${hash32(key).toString(36)}"`);
      bodies.set(key, body);
    }
    send(request, reply, 200, body, route.kind === 'videos' && varies ? VIDEO_HEADERS : LIST_HEADERS);
  });

  app.get<{ Params: { size: string; file: string } }>('/t/p/:size/:file', (request, reply) => {
    const { size, file } = request.params;
    if (!isImageSize(size)) throw new HttpError(errors.notFound);
    if (!catalogue) {
      // Proxy mode: TMDB's image host serves the real pictures; no key is involved.
      if (!/^[\w-]{1,100}\.(jpg|jpeg|png|svg|webp)$/.test(file)) throw new HttpError(errors.notFound);
      reply.code(302).headers({ Location: `${imageUpstream}/t/p/${size}/${file}`, 'Cache-Control': 'public, max-age=86400' }).send();
      return;
    }
    const key = `${size}/${file}`;
    let body = artwork.get(key);
    if (!body) {
      const found = findArtwork(catalogue, file);
      if (!found) throw new HttpError(errors.notFound);
      body = new Body(renderArtwork(catalogue, found.title, found.kind, size), 'image/svg+xml;charset=utf-8');
      artwork.set(key, body);
    }
    send(request, reply, 200, body, { 'Cache-Control': CACHE_IMMUTABLE });
  });

  app.get<{ Params: { name: string } }>('/media/:name', (request, reply) => {
    if (!serveMedia(request, reply, request.params.name)) throw new HttpError(errors.notFound);
  });

  app.get('/health', (request, reply) => {
    const health = { status: 'ok', mode: catalogue ? 'embedded' : 'proxy', titles: catalogue?.size ?? null };
    send(request, reply, 200, new Body(JSON.stringify(health), JSON_TYPE), { 'Cache-Control': 'no-store' });
  });

  app.setNotFoundHandler((request, reply) => {
    sendError(request, reply, errors.notFound);
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) {
      sendError(request, reply, error.tmdb);
      return;
    }
    // A bug, not bad input: say so in the log, answer TMDB-shaped, keep serving.
    request.log.error({ err: error, method: request.method, path: request.url.split('?')[0] }, 'catalogue: a request failed');
    sendError(request, reply, errors.internal);
  });

  if (catalogue) {
    // Secondary indexes are lazy so start-up stays fast; build them right after listening so
    // the first search does not pay for them.
    app.server.once('listening', () =>
      setImmediate(() => {
        catalogue.byGenre('movie');
        catalogue.byGenre('tv');
        catalogue.genreMasks('movie');
        catalogue.genreMasks('tv');
        prepareSearch(catalogue);
      }),
    );
  }

  return {
    app,
    catalogueInfo: catalogue ? { mode: 'embedded', titles: catalogue.size } : { mode: 'proxy', titles: 0, upstream },
    cacheStats: () => ({ entries: bodies.size, bytes: bodies.bytes }),
  };
}

/**
 * What every request gets before its route: nosniff, the CORS headers, a preflight's answer, and
 * 405 for a method the service does not take (on any path). True when that answered it.
 */
function answersBeforeRouting(request: FastifyRequest, reply: FastifyReply, allows: OriginPolicy): boolean {
  reply.header('X-Content-Type-Options', 'nosniff');
  if (applyCors(request, reply, allows)) return true;
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  sendError(request, reply, errors.methodNotAllowed, { Allow: 'GET, HEAD, OPTIONS' });
  return true;
}

/** The path and query of an absolute-form request target; any other target as it is. */
function absoluteFormPath(target: string): string {
  if (target.startsWith('/') || !/^https?:\/\//i.test(target)) return target;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return target;
  }
}

/** Loopback names, on any port: the local site reaches the service by them. */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** Which Host header values may name this service in the URLs it hands out. */
function hostPolicy(listed: readonly string[] = []): (host: string) => boolean {
  const exact = new Set(listed.map((host) => host.trim().toLowerCase()).filter(Boolean));
  return (host) => LOOPBACK_HOST.test(host) || exact.has(host.toLowerCase());
}
