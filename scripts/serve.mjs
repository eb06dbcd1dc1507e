// Serves built apps the way a CDN would: hashed files immutable, entry documents no-cache,
// precompressed brotli/gzip when the browser accepts them, CORS for the remotes. Strict by
// default: GET and HEAD only (a service given to it answers its own requests, e.g. the release
// health collector's POSTs), paths checked before any file is looked up (scripts/staticFiles.mjs),
// bounded time per request and connections, loopback only unless HOST says otherwise.
import { realpathSync } from 'node:fs';
import http from 'node:http';
import { secureResponse } from './securityHeaders.mjs';
import { findFile, LOOKS_LIKE_FILE, safePath, sendFile } from './staticFiles.mjs';

// Webpack names every emitted file with a 10-hex content hash ([contenthash:10]): any such name is immutable.
const HASHED = /\.[0-9a-f]{10}\.[a-z0-9]+$/;

/**
 * The server's limits (README, "Security"). A client slower than these gets 408 or is dropped,
 * so a few idle sockets cannot hold the server; past maxConnections new sockets are closed at once.
 */
const LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxConnections: 512,
};

const notFound = (res) => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');

/**
 * @param {{ dir: string, port: number, host?: string, spa?: boolean, cors?: boolean,
 *   only?: (path: string) => boolean, limits?: Partial<typeof LIMITS>,
 *   documents?: Record<string, (req: http.IncomingMessage) => unknown>,
 *   pages?: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
 *   services?: { matches(req: http.IncomingMessage): boolean, handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> }[] }} options
 *   documents: JSON documents computed per request (the shell's /config.json and /remotes.json).
 *   pages: answers every page address (a path that does not name a file): the shell's server render.
 *   only: the (decoded, checked) paths served; anything else is a 404.
 *   services: answer the requests they match, whatever the method, before anything else.
 *   host: defaults to $HOST, else 127.0.0.1 (this machine only).
 *   Files are read from the disk on every request, so a rebuilt app or a new release shows at once.
 */
export function serveApp({ dir, port, host = process.env.HOST || '127.0.0.1', spa = false, cors = false, only, limits = {}, documents = {}, pages, services = [] }) {
  const { maxConnections, ...timeouts } = { ...LIMITS, ...limits };
  const realRoot = realpathSync(dir);
  const allowed = cors ? 'GET, HEAD, OPTIONS' : 'GET, HEAD';
  const served = only ?? (() => true);

  async function answer(req, res) {
    secureResponse(res);
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
      // Vary: /remotes.json lists QA pins only for a request with a valid QA token.
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', Vary: 'X-Netnet-QA-Token' });
      res.end(body);
      return;
    }
    if (!served(path)) return notFound(res);
    if (pages && !LOOKS_LIKE_FILE.test(path)) return pages(req, res);
    const file = await findFile(realRoot, path, { acceptEncoding: req.headers['accept-encoding'], spa });
    if (!file) return notFound(res);
    sendFile(req, res, file, {
      'Cache-Control': HASHED.test(file.name) ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }

  const server = http.createServer(
    // Node checks the header and request timeouts on this interval (30 s by default), so it must
    // be shorter than the timeouts for them to hold.
    { ...timeouts, connectionsCheckingInterval: Math.min(1_000, timeouts.headersTimeout / 2) },
    (req, res) => {
      answer(req, res).catch((error) => {
        console.error(`${req.url}: ${error instanceof Error ? error.message : error}`);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Server error');
        else res.destroy();
      });
    },
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.maxConnections = maxConnections;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
