// Serves built apps the way a CDN would: hashed files immutable, entry documents no-cache,
// precompressed brotli/gzip when the browser accepts them, CORS for the remotes. Strict by
// default: GET and HEAD only (a service given to it answers its own requests, e.g. the release
// health collector's POSTs), paths checked before any file is looked up (scripts/staticFiles.mjs),
// bounded time per request, connections per client and in all, loopback only unless HOST says
// otherwise (docs/limits.md).
import { realpathSync } from 'node:fs';
import http from 'node:http';
import { secureResponse } from './securityHeaders.mjs';
import { findFile, LOOKS_LIKE_FILE, safePath, sendFile } from './staticFiles.mjs';
import { clientAddress, clientKey, trustedProxiesFrom, viaHttps } from '@netnet/server-kit';

// Webpack names every emitted file with a 10-hex content hash ([contenthash:10]): any such name is immutable.
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

/**
 * The server's limits (docs/limits.md), so that one client cannot hold what
 * everyone shares:
 *  - headersTimeout: a connection must send a whole request line and headers this soon after it
 *    opens (or after the previous answer on it began), else 408 and closed: a silent socket is gone
 *    within 1.5–1.75 s (Node checks every connectionsCheckingInterval);
 *  - requestTimeout: the whole request, body included: the largest body anyone takes (a 16 KB
 *    release-health batch) must come at 3.2 KB/s or better;
 *  - keepAliveTimeout: an idle kept-alive connection is closed after this;
 *  - connectionsPerClient: open connections per client address (an IPv6 /64 counts as one; a
 *    trusted proxy, NETNET_TRUSTED_PROXIES, is exempt: it carries everyone). Past it, a new
 *    connection is closed at once. A browser opens at most 6 per origin;
 *  - maxConnections: open connections in all; past it new ones are closed at once;
 *  - pipelinedRequests: requests one connection may have waiting for their answers; a client
 *    pipelining more is closed (browsers never pipeline; Node would otherwise take every request
 *    of the connection's buffer at once).
 */
export const LIMITS = Object.freeze({
  headersTimeout: 1_500,
  requestTimeout: 5_000,
  keepAliveTimeout: 5_000,
  connectionsPerClient: 64,
  maxConnections: 4_096,
  pipelinedRequests: 16,
});

const notFound = (res) => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');

/** NETNET_CONNECTIONS_PER_CLIENT, when set, instead of LIMITS.connectionsPerClient (e.g. many members behind one NAT). */
function connectionsPerClientFrom(env) {
  const raw = env.NETNET_CONNECTIONS_PER_CLIENT;
  if (raw === undefined || raw === '') return LIMITS.connectionsPerClient;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`NETNET_CONNECTIONS_PER_CLIENT must be a whole number of at least 1, got "${raw}"`);
  return Number(raw);
}

/** Counts a request against its connection's pipeline; false when the connection is over its limit (and is closed). */
const PIPELINED = Symbol('requests waiting for their answers on this connection');
function withinPipeline(req, res, limit) {
  const socket = req.socket;
  socket[PIPELINED] = (socket[PIPELINED] ?? 0) + 1;
  res.once('close', () => (socket[PIPELINED] -= 1));
  if (socket[PIPELINED] <= limit) return !socket.destroyed;
  socket.destroy();
  return false;
}

/**
 * @param {{ dir: string, port: number, host?: string, spa?: boolean, cors?: boolean,
 *   only?: (path: string) => boolean, limits?: Partial<typeof LIMITS>,
 *   documents?: Record<string, (req: http.IncomingMessage) => unknown>,
 *   pages?: (req: http.IncomingMessage, res: http.ServerResponse, facts: { https: boolean, client: string }) => Promise<void>,
 *   services?: { matches(req: http.IncomingMessage): boolean, handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> }[],
 *   devServers?: (req: http.IncomingMessage) => { origins: string[], websockets: string[] } | null }} options
 *   documents: JSON documents computed per request (the shell's /config.json and /remotes.json).
 *   pages: answers every page address (a path that does not name a file): the shell's server render;
 *   `facts.https` says whether the client spoke HTTPS (to a trusted proxy, NETNET_TRUSTED_PROXIES),
 *   `facts.client` who the client is (the address a trusted proxy names; an IPv6 one by its /64).
 *   only: the (decoded, checked) paths served; anything else is a 404.
 *   services: answer the requests they match, whatever the method, before anything else.
 *   devServers: the dev servers the requesting browser has pinned (the shell's dev pins), which its
 *   documents' Content-Security-Policy then allows; everyone else's policy is unchanged.
 *   host: defaults to $HOST, else 127.0.0.1 (this machine only).
 *   env: where NETNET_TRUSTED_PROXIES and NETNET_CONNECTIONS_PER_CLIENT are read (process.env).
 *   Files are read from the disk on every request, so a rebuilt app or a new release shows at once.
 */
export function serveApp({ dir, port, host = process.env.HOST || '127.0.0.1', spa = false, cors = false, only, limits = {}, documents = {}, pages, services = [], devServers, env = process.env }) {
  const { maxConnections, connectionsPerClient, pipelinedRequests, ...timeouts } = { ...LIMITS, connectionsPerClient: connectionsPerClientFrom(env), ...limits };
  const trusted = trustedProxiesFrom(env);
  const realRoot = realpathSync(dir);
  const allowed = cors ? 'GET, HEAD, OPTIONS' : 'GET, HEAD';
  const served = only ?? (() => true);

  async function answer(req, res) {
    secureResponse(res, process.env, devServers?.(req) ?? null);
    const service = services.find((candidate) => candidate.matches(req));
    if (service) return service.handle(req, res);
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', allowed);
        res.writeHead(204).end();
        return;
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: allowed, 'Content-Type': 'text/plain' }).end('Method not allowed');
      return;
    }
    const path = safePath(req.url);
    if (path === null) return notFound(res);
    const document = documents[path];
    if (document) {
      let body;
      try {
        body = JSON.stringify(document(req));
      } catch (error) {
        console.error(`${path}: ${error instanceof Error ? error.message : error}`);
        res.writeHead(500, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ error: `${path} could not be produced.` }));
        return;
      }
      // no-store and Vary: /remotes.json lists QA pins only for a request with a valid QA token
      // (its cookie or header), and a dev server only for the browser whose cookie pins it.
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Vary: 'Cookie, X-Netnet-QA-Token' });
      res.end(body);
      return;
    }
    if (!served(path)) return notFound(res);
    if (pages && !LOOKS_LIKE_FILE.test(path)) return pages(req, res, { https: viaHttps(req, trusted), client: clientKey(clientAddress(req, trusted)) });
    const file = await findFile(realRoot, path, { acceptEncoding: req.headers['accept-encoding'], spa });
    if (!file) return notFound(res);
    sendFile(req, res, file, {
      'Cache-Control': HASHED.test(file.name) ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }

  const server = http.createServer(
    // Node checks the header and request timeouts on this interval (30 s by default), so it must
    // be well under the timeouts for them to hold.
    { ...timeouts, connectionsCheckingInterval: Math.min(250, timeouts.headersTimeout / 2) },
    (req, res) => {
      if (!withinPipeline(req, res, pipelinedRequests)) return;
      answer(req, res).catch((error) => {
        console.error(`${req.url}: ${error instanceof Error ? error.message : error}`);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Server error');
        else res.destroy();
      });
    },
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.maxConnections = maxConnections;
  limitPerClient(server, connectionsPerClient, trusted);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      // Once listening, an error is one accepted socket's (too many open files, most likely): said, not fatal.
      let saidAt = 0;
      server.on('error', (error) => {
        if (Date.now() - saidAt < 1_000) return;
        saidAt = Date.now();
        console.error(`port ${port}: ${error.message}`);
      });
      resolve(server);
    });
  });
}

/** Closes a client's connection past `perClient` open ones at once (trusted proxies exempt). */
export function limitPerClient(server, perClient, trusted) {
  const open = new Map();
  server.on('connection', (socket) => {
    if (trusted.has(socket.remoteAddress)) return;
    const key = clientKey(socket.remoteAddress ?? '');
    const count = (open.get(key) ?? 0) + 1;
    if (count > perClient) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = open.get(key) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
  return open;
}
