// A stand-in for a shell instance (shell/server/main.ts) in the front door's tests: the
// same lifecycle (probes, drain, hints as Link headers) around a tiny server, so nginx's proxying,
// retries and the drain can be checked in seconds without building the site.
//   GET /headers        the request's headers, as the instance received them
//   GET /slow?ms=N      answers after N ms (an in-flight render)
//   POST /health/reports 204; ?die=1 drops the connection instead (an instance dying mid-request)
//   GET /posts          how many POSTs this process has received
//   /releases/<path>    a releases route's answer (shell/server/httpServer.ts): CORS, caching by
//                       name, brotli when accepted, an ETag and 304; its body names the path it got
//   GET anything else   200 naming this process, with an Early Hint
import http from 'node:http';
import { brotliCompressSync } from 'node:zlib';
import { runInstance } from '../../shell/server/lifecycle.ts';

const port = Number(process.env.PORT);
let posts = 0;

function release(req, res, path) {
  const cors = { 'Access-Control-Allow-Origin': '*' };
  if (req.method === 'OPTIONS') return res.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS' }).end();
  const br = /\bbr\b/.test(req.headers['accept-encoding'] ?? '');
  const etag = `W/"${path.length}-${br ? 'br' : 'plain'}"`;
  const headers = {
    ...cors,
    'Cache-Control': /\.[0-9a-f]{10}\.[a-z0-9]+$/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
    'Content-Type': 'text/javascript',
    ETag: etag,
    Vary: 'Accept-Encoding',
    ...(br && { 'Content-Encoding': 'br' }),
  };
  if (req.headers['if-none-match'] === etag) return res.writeHead(304, headers).end();
  const body = JSON.stringify({ pid: process.pid, path });
  res.writeHead(200, headers).end(br ? brotliCompressSync(body) : body);
}

function answer(req, res) {
  const url = new URL(req.url ?? '/', 'http://instance');
  const json = (value) => res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(value));
  if (req.method === 'POST') {
    posts += 1;
    req.resume();
    req.on('end', () => (url.searchParams.has('die') ? req.socket.destroy() : res.writeHead(204).end()));
    return;
  }
  if (url.pathname === '/headers') return json({ pid: process.pid, headers: req.headers });
  if (url.pathname === '/posts') return json({ pid: process.pid, posts });
  if (url.pathname.startsWith('/releases/')) return release(req, res, url.pathname);
  res.writeEarlyHints({ link: ['</main.0123456789.js>; rel=preload; as=script'] });
  const page = () => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(`<p>page from ${process.pid}</p>`);
  const ms = Number(url.searchParams.get('ms') ?? 0);
  if (ms > 0) setTimeout(page, ms);
  else page();
}

await runInstance({
  name: process.env.NETNET_INSTANCE_NAME ?? `fake:${port}`,
  hintsAsLinkHeaders: process.env.NETNET_EARLY_HINTS === 'link',
  // The probes for this machine, as an instance without NETNET_INTERNAL_ADDRESSES answers them.
  operator: {},
  log: () => {},
  start: async () => {
    // A short warm-up, as the shell's server loads its server builds before it listens.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const server = http.createServer(answer);
    server.keepAliveTimeout = 5_000;
    await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
    return server;
  },
});
