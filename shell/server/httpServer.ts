// The site's HTTP server, on Fastify: the shell's (its pages, documents and services), and as
// `npm start` runs them, each remote's origin and the published releases', served as a CDN would —
// hashed files immutable, entry documents no-cache, precompressed brotli/gzip when the browser
// accepts them, CORS for the remotes. Strict by default: GET and HEAD only (a service given to it
// answers its own requests, e.g. the release-health collector's POSTs), paths checked before any
// file is looked up (./staticFiles.ts), the deadlines and connection shares of docs/limits.md
// (@netnet/server-kit), loopback only unless HOST says otherwise.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  CONNECTION_LIMITS,
  CONNECTION_VARIABLES,
  clientAddress,
  clientKey,
  createLogger,
  LISTEN_VARIABLES,
  limitConnections,
  LOG_VARIABLES,
  loggerOptions,
  parseTrustedProxies,
  PROXY_VARIABLES,
  readConfig,
  serverOptions,
  viaHttps,
  type ConfigOf,
  type ConnectionLimits,
  type Logger,
} from '@netnet/server-kit';
import { acceptableEncodings } from '@netnet/server-kit/encoding';
import site from '@netnet/site';
import { secureResponse, type DevServers } from './securityHeaders.ts';
import type { ReleaseFiles } from './releaseFiles.ts';
import { findFile, LOOKS_LIKE_FILE, safePath, sendFile } from './staticFiles.ts';

// Webpack names every emitted file with a 10-hex content hash ([contenthash:10]): any such name is immutable.
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

/** The site servers' limits: server-kit's, the same for every Netnet server. */
export const LIMITS = CONNECTION_LIMITS;

/** A service answers the requests it matches, whatever the method, before anything else, on the raw request. */
export interface Service {
  matches(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** What the page server is told of a request: whether the client spoke HTTPS (to a trusted proxy) and who it is. */
export interface RequestFacts {
  https: boolean;
  client: string;
}

interface ServeOptionsBase {
  dir: string;
  port: number;
  /** Default: the config's HOST, else 127.0.0.1 (this machine only). */
  host?: string;
  /** Page routes (no extension) answered with the root index.html. */
  spa?: boolean;
  cors?: boolean;
  /** The (decoded, checked) paths served; anything else is a 404. */
  only?: (path: string) => boolean;
  limits?: Partial<ConnectionLimits>;
  /** JSON documents computed per request (the shell's /config.json and /remotes.json). */
  documents?: Record<string, (req: IncomingMessage) => unknown>;
  /** Answers every page address (a path that does not name a file): the shell's server render. */
  pages?: (req: IncomingMessage, res: ServerResponse, facts: RequestFacts) => Promise<void>;
  services?: Service[];
  /** Releases' files (./releaseFiles.ts): answered under their prefix, as a CDN would, with CORS. */
  releases?: ReleaseFiles;
  /** The dev servers the requesting browser has pinned, which its documents' policy then allows. */
  devServers?: (req: IncomingMessage) => DevServers | null;
  logger?: Logger;
}

/**
 * The config is the process's, read once by its entry (the shell's, ./config.ts, holds every
 * variable a site server reads); a test may give an environment to read it from instead.
 */
export type ServeOptions = ServeOptionsBase & ({ config: ServeConfig; env?: undefined } | { env: NodeJS.ProcessEnv; config?: undefined });

// The variables every site server reads: where it listens, the connection shares, who is believed
// about the client, its log, and the site's origins its content policy allows.
const SERVE_VARIABLES = {
  ...LISTEN_VARIABLES,
  ...CONNECTION_VARIABLES,
  ...PROXY_VARIABLES,
  ...LOG_VARIABLES,
  ...site.MAP_VARIABLES,
  ...site.RUNTIME_VARIABLES,
};
export type ServeConfig = ConfigOf<typeof SERVE_VARIABLES>;

const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain').send('Not found');

/** The server, listening. Files are read from the disk on every request, so a rebuilt app or a new release shows at once. */
export async function serveApp({
  dir,
  port,
  host,
  spa = false,
  cors = false,
  only,
  limits = {},
  documents = {},
  pages,
  services = [],
  releases,
  devServers,
  env,
  config = readConfig(SERVE_VARIABLES, env ?? {}),
  logger = createLogger('site', config.logLevel),
}: ServeOptions): Promise<Server> {
  const all: ConnectionLimits = { ...LIMITS, connectionsPerClient: config.connectionsPerClient, ...limits };
  const trusted = parseTrustedProxies(config.trustedProxies, config.trustedProxySecret);
  const realRoot = realpathSync(dir);
  const realReleases = releases && realpathSync(releases.dir);
  const allowed = cors ? 'GET, HEAD, OPTIONS' : 'GET, HEAD';
  const served = only ?? (() => true);

  const app = Fastify({
    ...serverOptions(all),
    ...loggerOptions(logger),
    // The paths are checked by safePath (./staticFiles.ts), not by the router: every request comes to answer().
    routerOptions: { maxParamLength: 8 * 1024 },
    frameworkErrors: (_error, request, reply) => void answer(request as FastifyRequest, reply as FastifyReply).catch(() => (reply as FastifyReply).code(500).send('Server error')),
  });
  limitConnections(app, all, { trusted });
  // A service reads its own body (the collector counts and caps it): Fastify parses none.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  app.addHook('onRequest', async (request, reply) => secureResponse(reply.raw, config, devServers?.(request.raw) ?? null));

  /** Hands the answer to code written for Node's own request and response (the services, the page server). */
  async function answerRawly(request: FastifyRequest, reply: FastifyReply, handle: () => Promise<void>) {
    reply.hijack();
    try {
      await handle();
    } catch (error) {
      request.log.error({ url: request.url, err: error }, 'the request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'Content-Type': 'text/plain' }).end('Server error');
      else reply.raw.destroy();
    }
  }

  const immutableOrNot = (name: string) => ({ 'Cache-Control': HASHED.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache' });

  /**
   * A release's file: `<prefix>/<remote>/<version>/<file>`, from the working folder once the store
   * lists the release; a hashed one from memory while it is hot (./hotFiles.ts).
   */
  async function answerRelease(request: FastifyRequest, reply: FastifyReply, { prefix, has, hot }: ReleaseFiles, realDir: string) {
    reply.header('Access-Control-Allow-Origin', '*');
    if (request.method === 'OPTIONS') return reply.code(204).header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS').send();
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(405).headers({ Allow: 'GET, HEAD, OPTIONS', 'Content-Type': 'text/plain' }).send('Method not allowed');
    }
    const path = safePath(request.raw.url)?.slice(prefix.length);
    const [, remote, version] = /^\/([^/]+)\/([^/]+)\/[^/]/.exec(path ?? '') ?? [];
    if (!path || remote === undefined || version === undefined || !(await has(remote, version))) return notFound(reply);
    const acceptEncoding = request.headers['accept-encoding'];
    // Asked after has(): a release no longer listed is never answered from memory.
    const key = hot && HASHED.test(path) ? `${path}\n${acceptableEncodings(acceptEncoding).join(',')}` : null;
    const kept = key === null ? undefined : hot?.get(key);
    if (kept) return sendFile(request, reply, kept.file, immutableOrNot(kept.file.name), kept.body);
    const file = await findFile(realDir, path, { acceptEncoding });
    if (!file) return notFound(reply);
    if (key === null || !hot?.keeps(file.stats.size)) return sendFile(request, reply, file, immutableOrNot(file.name));
    const body = await readFile(file.real);
    hot.set(key, { file, body });
    return sendFile(request, reply, file, immutableOrNot(file.name), body);
  }

  async function answer(request: FastifyRequest, reply: FastifyReply) {
    const req = request.raw;
    const service = services.find((candidate) => candidate.matches(req));
    if (service) return answerRawly(request, reply, () => service.handle(req, reply.raw));
    if (releases && realReleases && (req.url ?? '').startsWith(`${releases.prefix}/`)) return answerRelease(request, reply, releases, realReleases);
    if (cors) {
      reply.header('Access-Control-Allow-Origin', '*');
      if (request.method === 'OPTIONS') return reply.code(204).header('Access-Control-Allow-Methods', allowed).send();
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(405).headers({ Allow: allowed, 'Content-Type': 'text/plain' }).send('Method not allowed');
    }
    const path = safePath(req.url);
    if (path === null) return notFound(reply);
    const document = documents[path];
    if (document) {
      // no-store and Vary: /remotes.json lists QA pins only for a request with a valid QA token
      // (its cookie or header), and a dev server only for the browser whose cookie pins it.
      reply.headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      let body: string;
      try {
        body = JSON.stringify(document(req));
      } catch (error) {
        request.log.error({ path, err: error }, 'a document could not be produced');
        return reply.code(500).send(JSON.stringify({ error: `${path} could not be produced.` }));
      }
      return reply.code(200).header('Vary', 'Cookie, X-Netnet-QA-Token').send(body);
    }
    if (!served(path)) return notFound(reply);
    if (pages && !LOOKS_LIKE_FILE.test(path)) {
      const facts = { https: viaHttps(req, trusted), client: clientKey(clientAddress(req, trusted)) };
      return answerRawly(request, reply, () => pages(req, reply.raw, facts));
    }
    const file = await findFile(realRoot, path, { acceptEncoding: request.headers['accept-encoding'], spa });
    if (!file) return notFound(reply);
    return sendFile(request, reply, file, immutableOrNot(file.name));
  }

  app.all('*', answer);
  app.setNotFoundHandler(answer);
  app.setErrorHandler((error, request, reply) => {
    request.log.error({ url: request.url, err: error }, 'the request failed');
    if (reply.sent || reply.raw.headersSent) reply.raw.destroy();
    else void reply.code(500).type('text/plain').send('Server error');
  });

  await app.listen({ port, host: host ?? config.host });
  // Once listening, an error is one accepted socket's (too many open files, most likely): said, not fatal.
  let saidAt = 0;
  app.server.on('error', (error) => {
    if (Date.now() - saidAt < 1_000) return;
    saidAt = Date.now();
    logger.error({ port, err: error }, 'the server could not accept a connection');
  });
  return app.server;
}
