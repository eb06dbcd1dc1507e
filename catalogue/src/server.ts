// The catalogue service: one node:http server answering TMDB v3 paths under /3/, artwork under
// /t/p/, the demo clip under /media/ — from generated data, or from TMDB through the proxy.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CONNECTION_LIMITS, limitConnections, serverTimeouts, type ConnectionLimits } from './connections';
import { applyCors, originPolicy } from './cors';
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
import type { RateLimit } from './rateLimit';
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
  clientRateLimit?: RateLimit;
  /** Connection limits and deadlines (connections.ts); CONNECTION_LIMITS by default. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Injectable for tests (proxy mode). */
  fetch?: typeof fetch;
  log?: (message: string) => void;
}

export const DEFAULT_SIZE = 3000;
export const DEFAULT_SEED = 20240604;
const LIST_HEADERS = { 'Cache-Control': CACHE_LISTS };
// A clip URL taken from the Host header differs per Host: shared caches must keep them apart.
const VIDEO_HEADERS = { ...LIST_HEADERS, Vary: 'Host' };

export interface CatalogueServer extends Server {
  readonly catalogueInfo: { mode: 'embedded' | 'proxy'; titles: number; upstream?: string };
  /** The embedded answer cache: entries and their bytes (bodies and keys). */
  cacheStats(): { entries: number; bytes: number };
}

export function createCatalogueServer(options: CatalogueServerOptions = {}): CatalogueServer {
  const log = options.log ?? ((message: string) => console.error(message));
  const allows = originPolicy(options.allowedOrigins);
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
        log,
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
  const originOf = (req: IncomingMessage): { origin: string; varies: boolean } => {
    if (publicUrl) return { origin: publicUrl, varies: false };
    const host = req.headers.host;
    if (host && trustsHost(host)) return { origin: `http://${host.toLowerCase()}`, varies: true };
    // Not the Host a client made up: the address this request actually reached.
    const address = req.socket.localAddress ?? '127.0.0.1';
    return { origin: `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`, varies: true };
  };

  async function api(req: IncomingMessage, res: ServerResponse, path: string, params: URLSearchParams): Promise<void> {
    const route = matchRoute(path);
    const query = readQuery(route, params);
    if (proxy) {
      const reply = await proxy(route, query, req.socket.remoteAddress ?? '');
      send(req, res, reply.status, reply.body, reply.headers);
      return;
    }
    const { origin, varies } = originOf(req);
    const { key, build } = answer(catalogue!, route, { query, origin });
    let body = bodies.get(key);
    if (!body) {
      body = new Body(build(), JSON_TYPE, `"${instance}-${hash32(key).toString(36)}"`);
      bodies.set(key, body);
    }
    send(req, res, 200, body, route.kind === 'videos' && varies ? VIDEO_HEADERS : LIST_HEADERS);
  }

  function image(req: IncomingMessage, res: ServerResponse, size: string, file: string): void {
    if (!isImageSize(size)) throw new HttpError(errors.notFound);
    if (!catalogue) {
      // Proxy mode: TMDB's image host serves the real pictures; no key is involved.
      if (!/^[\w-]{1,100}\.(jpg|jpeg|png|svg|webp)$/.test(file)) throw new HttpError(errors.notFound);
      res.writeHead(302, { Location: `${imageUpstream}/t/p/${size}/${file}`, 'Cache-Control': 'public, max-age=86400' });
      res.end();
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
    send(req, res, 200, body, { 'Cache-Control': CACHE_IMMUTABLE });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (applyCors(req, res, allows)) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(req, res, errors.methodNotAllowed, { Allow: 'GET, HEAD, OPTIONS' });
      return;
    }
    const url = parseUrl(req.url);
    const path = url.pathname;
    if (path.startsWith('/3/')) return api(req, res, path.slice(3), url.searchParams);
    const parts = path.split('/');
    if (parts.length === 5 && parts[1] === 't' && parts[2] === 'p') return image(req, res, parts[3]!, parts[4]!);
    if (parts.length === 3 && parts[1] === 'media' && serveMedia(req, res, parts[2]!)) return;
    if (path === '/health') {
      const health = { status: 'ok', mode: catalogue ? 'embedded' : 'proxy', titles: catalogue?.size ?? null };
      send(req, res, 200, new Body(JSON.stringify(health), JSON_TYPE), { 'Cache-Control': 'no-store' });
      return;
    }
    throw new HttpError(errors.notFound);
  }

  const limits = { ...CONNECTION_LIMITS, ...options.connectionLimits };
  const server = createServer(serverTimeouts(limits), (req, res) => {
    // Closed for pipelining past the limit (connections.ts): nothing to answer.
    if (req.socket.destroyed) return;
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        sendError(req, res, error.tmdb);
        return;
      }
      // A bug, not bad input: say so in the log, answer TMDB-shaped, keep serving.
      log(`catalogue: ${req.method} ${req.url?.split('?')[0]} failed: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) sendError(req, res, errors.internal);
      else res.destroy();
    });
  }) as CatalogueServer;
  limitConnections(server, limits);

  if (catalogue) {
    // Secondary indexes are lazy so start-up stays fast; build them right after listening so
    // the first search does not pay for them.
    server.once('listening', () =>
      setImmediate(() => {
        catalogue.byGenre('movie');
        catalogue.byGenre('tv');
        catalogue.genreMasks('movie');
        catalogue.genreMasks('tv');
        prepareSearch(catalogue);
      }),
    );
  }

  Object.defineProperty(server, 'catalogueInfo', {
    value: catalogue ? { mode: 'embedded', titles: catalogue.size } : { mode: 'proxy', titles: 0, upstream },
  });
  server.cacheStats = () => ({ entries: bodies.size, bytes: bodies.bytes });
  return server;
}

function parseUrl(raw: string | undefined): URL {
  try {
    return new URL(raw ?? '/', 'http://catalogue.invalid');
  } catch {
    throw new HttpError(errors.notFound);
  }
}

/** Loopback names, on any port: the local site reaches the service by them. */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** Which Host header values may name this service in the URLs it hands out. */
function hostPolicy(listed: readonly string[] = []): (host: string) => boolean {
  const exact = new Set(listed.map((host) => host.trim().toLowerCase()).filter(Boolean));
  return (host) => LOOPBACK_HOST.test(host) || exact.has(host.toLowerCase());
}
