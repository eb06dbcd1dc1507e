// Serves built apps the way a CDN would: hashed files immutable, entry documents no-cache,
// precompressed brotli/gzip when the browser accepts them, CORS for the remotes.
import http from 'node:http';
import sirv from 'sirv';

const HASHED = /\.[0-9a-f]{10}\.(js|css|svg|png|jpe?g|webp|mp4|woff2)$/;

function cacheHeaders(res, pathname) {
  res.setHeader('Cache-Control', HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/**
 * @param {{ dir: string, port: number, spa?: boolean, cors?: boolean, documents?: Record<string, () => unknown> }} options
 *   documents: JSON documents computed per request (the shell's /config.json and /remotes.json).
 */
export function serveApp({ dir, port, spa = false, cors = false, documents = {} }) {
  const files = sirv(dir, {
    // Live mode reads the disk on every request, so a rebuilt app shows without a restart.
    dev: process.env.NETNET_SERVE_LIVE === '1',
    etag: true,
    gzip: true,
    brotli: true,
    single: spa,
    setHeaders: cacheHeaders,
  });
  const server = http.createServer((req, res) => {
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
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
      res.end(JSON.stringify(document()));
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
