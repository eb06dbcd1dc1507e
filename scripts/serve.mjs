// Serves built apps the way a CDN would: hashed files immutable, entry documents no-cache,
// precompressed brotli/gzip when the browser accepts them, CORS for the remotes.
import http from 'node:http';
import sirv from 'sirv';
import { secureResponse } from './securityHeaders.mjs';

const HASHED = /\.[0-9a-f]{10}\.(js|css|svg|png|jpe?g|webp|mp4|woff2)$/;

function cacheHeaders(res, pathname) {
  res.setHeader('Cache-Control', HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/**
 * @param {{ dir: string, port: number, spa?: boolean, cors?: boolean, live?: boolean, only?: RegExp,
 *   documents?: Record<string, (req: http.IncomingMessage) => unknown> }} options
 *   documents: JSON documents computed per request (the shell's /config.json and /remotes.json).
 *   live: read the disk on every request (a folder that changes while served, like deploy/).
 *   only: the paths served; anything else is a 404.
 */
export function serveApp({ dir, port, spa = false, cors = false, live = false, only, documents = {} }) {
  const files = sirv(dir, {
    // Live mode reads the disk on every request, so a rebuilt app shows without a restart.
    dev: live || process.env.NETNET_SERVE_LIVE === '1',
    etag: true,
    gzip: true,
    brotli: true,
    single: spa,
    setHeaders: cacheHeaders,
  });
  const server = http.createServer((req, res) => {
    secureResponse(res);
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
        res.writeHead(204).end();
        return;
      }
    }
    const path = (req.url ?? '/').split('?')[0];
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
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
      res.end(body);
      return;
    }
    if (only && !only.test(path)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    files(req, res, () => {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}
