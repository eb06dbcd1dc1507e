// The site's servers (./httpServer.ts) under hostile requests, as the attack review sent them:
// a real server on an ephemeral port, raw request paths (no client-side normalization), a deploy
// tree with a secret beside the releases and links pointing out of it. Run: node --import tsx --test shell/server/httpServer.test.mjs
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { acceptableEncodings } from '@netnet/server-kit/encoding';
import { LIMITS, serveApp } from './httpServer.ts';
import { clientAddress, clientKey, parseTrustedProxies, viaHttps } from '@netnet/server-kit';

const SECRETS = ['SECRET=deploy-env', 'outside-secret', '"remotes"', 'half-staged', 'unfinished'];
let hostileRequests = 0;

const base = mkdtempSync(join(tmpdir(), 'netnet-serve-'));
const deploy = join(base, 'deploy');
const dist = join(base, 'dist');
const outside = join(base, 'outside');

function write(path, content) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

before(() => {
  const release = join(deploy, 'remote-title/1.0.0');
  write(join(release, 'mf-manifest.json'), '{"name":"remote_title"}');
  write(join(release, 'remoteEntry.js'), '/* entry */');
  write(join(release, 'remoteEntry.js.br'), brotliCompressSync('/* entry */'));
  write(join(release, '.hidden'), 'hidden');
  write(join(deploy, 'remote-title/1.1.0/remoteEntry.js'), 'unfinished'); // not in the store
  write(join(release, 'main.0123456789.js'), '/* hashed */');
  write(join(deploy, 'remote-title/.staging-1.2.0-4242/mf-manifest.json'), 'half-staged');
  write(join(deploy, 'rollout.local.json'), '{"remotes":{}}');
  write(join(deploy, '.env'), 'SECRET=deploy-env');
  write(join(outside, 'secret.txt'), 'outside-secret');
  symlinkSync(join(outside, 'secret.txt'), join(release, 'link.js'));
  symlinkSync(outside, join(release, 'dirlink'));
  symlinkSync(join(release, 'remoteEntry.js'), join(release, 'alias.js')); // stays inside: fine
  write(join(dist, 'index.html'), '<!doctype html><title>Netnet</title>');
  write(join(dist, 'main.0123456789.js'), '/* main */');
  write(join(dist, '.env'), 'SECRET=deploy-env');
  symlinkSync(join(outside, 'secret.txt'), join(dist, 'leak.js'));
});
after(() => rmSync(base, { recursive: true, force: true }));

/** One request with the path sent exactly as written (from `from`, a loopback address of this machine). */
function request(server, path, { method = 'GET', headers = {}, from, host = '127.0.0.1' } = {}) {
  const { port } = server.address();
  return new Promise((resolve, reject) => {
    const req = http.request({ host, port, path, method, headers, agent: false, localAddress: from }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const hostile = (server, path, options) => {
  hostileRequests += 1;
  return request(server, path, options);
};

function assertNothingLeaked(response) {
  for (const secret of SECRETS) assert.ok(!response.body.includes(secret), `leaked ${secret}`);
}

// The store lists remote-title 1.0.0 only (shell/server/releaseFiles.ts decides so from the store).
const asked = [];
const releaseFiles = (prefix) => ({
  prefix,
  dir: deploy,
  has: async (remote, version) => {
    asked.push(`${remote} ${version}`);
    return remote === 'remote-title' && version === '1.0.0' && existsSync(join(deploy, remote, version));
  },
});

describe('the releases origin', () => {
  let server;
  before(async () => {
    server = await serveApp({ dir: deploy, port: 0, releases: releaseFiles(''), env: {} });
  });
  after(() => server.close());

  it('listens on 127.0.0.1 only', () => {
    assert.equal(server.address().address, '127.0.0.1');
  });

  it('serves a finished release, precompressed when accepted, and a link that stays inside', async () => {
    const manifest = await request(server, '/remote-title/1.0.0/mf-manifest.json');
    assert.equal(manifest.status, 200);
    assert.equal(manifest.body, '{"name":"remote_title"}');
    assert.equal(manifest.headers['access-control-allow-origin'], '*');
    const entry = await request(server, '/remote-title/1.0.0/remoteEntry.js', { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(entry.status, 200);
    assert.equal(entry.headers['content-encoding'], 'br');
    assert.equal(entry.headers['content-type'], 'text/javascript');
    const alias = await request(server, '/remote-title/1.0.0/alias.js');
    assert.equal(alias.body, '/* entry */');
    const head = await request(server, '/remote-title/1.0.0/mf-manifest.json', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
  });

  const refused = [
    // traversal, plain and encoded, to a planted file and the .env beside the releases
    '/remote-title/1.0.0/%2e%2e/%2e%2e/rollout.local.json',
    '/remote-title/1.0.0/x/../../../.env',
    '/remote-title/1.0.0/../../rollout.local.json',
    '/remote-title/1.0.0/%2E%2E/%2E%2E/.env',
    '/remote-title/1.0.0/.%2e/.%2e/rollout.local.json',
    '/remote-title/1.0.0/%2e%2e%2f%2e%2e%2frollout.local.json',
    '/remote-title/1.0.0/..%2f..%2frollout.local.json',
    '/remote-title/1.0.0/..%2F..%2F.env',
    '/remote-title/1.0.0/..%5c..%5crollout.local.json',
    '/remote-title/1.0.0/..\\..\\rollout.local.json',
    '/remote-title/1.0.0/%252e%252e/%252e%252e/rollout.local.json',
    '/remote-title/1.0.0/./mf-manifest.json',
    '/remote-title/%2e%2e/rollout.local.json',
    '//rollout.local.json',
    '/rollout.local.json',
    '/rollout.local.json?x=/remote-title/1.0.0/a',
    '/.env',
    '/%2eenv',
    // NUL and undecodable escapes
    '/remote-title/1.0.0/mf-manifest.json%00.js',
    '/remote-title/1.0.0/%ZZ',
    '/remote-title/1.0.0/%',
    // dotfiles, staging and unfinished folders
    '/remote-title/1.0.0/.hidden',
    '/remote-title/.staging-1.2.0-4242/mf-manifest.json',
    '/remote-title/1.0.0/%2e%2e/.staging-1.2.0-4242/mf-manifest.json',
    '/remote-title/%2estaging-1.2.0-4242/mf-manifest.json',
    '/remote-title/1.1.0/remoteEntry.js',
    // links out of the root
    '/remote-title/1.0.0/link.js',
    '/remote-title/1.0.0/dirlink/secret.txt',
    // not a request path at all
    'http://127.0.0.1/remote-title/1.0.0/../../rollout.local.json',
    '*',
  ];
  for (const path of refused) {
    it(`refuses ${path}`, async () => {
      const response = await hostile(server, path);
      assert.equal(response.status, 404);
      assertNothingLeaked(response);
    });
  }

  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND']) {
    it(`answers ${method} with 405 and the methods it allows`, async () => {
      const response = await hostile(server, '/remote-title/1.0.0/mf-manifest.json', { method });
      assert.equal(response.status, 405);
      assert.equal(response.headers.allow, 'GET, HEAD, OPTIONS');
    });
  }

  it('sends a precompressed file only in a coding the client accepts: q=0 is never', async () => {
    const refused = await request(server, '/remote-title/1.0.0/remoteEntry.js', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0, identity' } });
    assert.equal(refused.headers['content-encoding'], undefined);
    assert.equal(refused.body, '/* entry */');
    const wanted = await request(server, '/remote-title/1.0.0/remoteEntry.js', { headers: { 'accept-encoding': 'gzip;q=0.5, br;q=0.6' } });
    assert.equal(wanted.headers['content-encoding'], 'br');
  });

  it('still answers a CORS preflight', async () => {
    const response = await request(server, '/remote-title/1.0.0/remoteEntry.js', { method: 'OPTIONS' });
    assert.equal(response.status, 204);
    assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
  });

  it('asks the store only of a release named by a checked path', () => {
    assert.ok(asked.length > 0);
    assert.deepEqual([...new Set(asked)].sort(), ['remote-title 1.0.0', 'remote-title 1.1.0']);
  });
});

describe('releases on an instance (/releases/)', () => {
  let server;
  before(async () => {
    server = await serveApp({ dir: dist, port: 0, spa: true, releases: releaseFiles('/releases'), env: {} });
  });
  after(() => server.close());

  it('answers as a CDN: CORS, hashed names immutable, entry documents no-cache, validators and 304', async () => {
    const hashed = await request(server, '/releases/remote-title/1.0.0/main.0123456789.js');
    assert.equal(hashed.status, 200);
    assert.equal(hashed.body, '/* hashed */');
    assert.equal(hashed.headers['access-control-allow-origin'], '*');
    assert.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(hashed.headers['x-content-type-options'], 'nosniff');
    for (const entry of ['mf-manifest.json', 'remoteEntry.js']) {
      const response = await request(server, `/releases/remote-title/1.0.0/${entry}`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(response.headers['cache-control'], 'no-cache', entry);
      const again = await request(server, `/releases/remote-title/1.0.0/${entry}`, { headers: { 'accept-encoding': 'br', 'if-none-match': response.headers.etag } });
      assert.equal(again.status, 304, entry);
      assert.equal(again.body, '');
    }
    const packed = await request(server, '/releases/remote-title/1.0.0/remoteEntry.js', { headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(packed.headers['content-encoding'], 'br');
    assert.equal(packed.headers.vary, 'Accept-Encoding');
  });

  it('keeps the shell’s own files and pages beside them', async () => {
    assert.equal((await request(server, '/main.0123456789.js')).body, '/* main */');
    assert.equal((await request(server, '/title/42')).status, 200);
  });

  for (const path of ['/releases/remote-title/1.1.0/remoteEntry.js', '/releases/remote-title/1.0.0/.hidden', '/releases/remote-title/1.0.0/link.js', '/releases/remote-title/1.0.0/../../../.env', '/releases/%2e%2e/dist/main.0123456789.js', '/releases/remote-title/1.0.0/']) {
    it(`refuses ${path}`, async () => {
      const response = await hostile(server, path);
      assert.equal(response.status, 404);
      assertNothingLeaked(response);
    });
  }
});

describe('an app server (the shell)', () => {
  let server;
  before(async () => {
    // A service answering its own path, whatever the method (as the release health collector does).
    const echo = {
      matches: (req) => req.url === '/health/reports',
      handle: async (req, res) => res.writeHead(202, { 'Content-Type': 'text/plain' }).end(`took ${req.method}`),
    };
    server = await serveApp({ dir: dist, port: 0, spa: true, documents: { '/config.json': () => ({ ok: true }) }, services: [echo], env: {} });
  });
  after(() => server.close());

  it('serves pages, hashed files and documents', async () => {
    const page = await request(server, '/title/42');
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type'], /^text\/html/);
    assert.match(page.headers['content-security-policy'], /frame-ancestors 'none'/);
    const main = await request(server, '/main.0123456789.js');
    assert.equal(main.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal((await request(server, '/config.json')).body, '{"ok":true}');
    assert.equal((await request(server, '/missing.js')).status, 404);
  });

  for (const path of ['/.env', '/leak.js', '/%2e%2e/outside/secret.txt', '/x/..%2f..%2fouting', '/..%5c.env']) {
    it(`refuses ${path}`, async () => {
      const response = await hostile(server, path);
      assert.equal(response.status, 404);
      assertNothingLeaked(response);
    });
  }

  it('answers POST with 405 and Allow: GET, HEAD (no CORS here)', async () => {
    const response = await hostile(server, '/config.json', { method: 'POST' });
    assert.equal(response.status, 405);
    assert.equal(response.headers.allow, 'GET, HEAD');
  });

  it('lets a service answer its own path, POST included, with the security headers', async () => {
    const response = await hostile(server, '/health/reports', { method: 'POST' });
    assert.equal(response.status, 202);
    assert.equal(response.body, 'took POST');
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal((await hostile(server, '/health/reports/x', { method: 'POST' })).status, 405);
  });
});

describe('limits', () => {
  /** A raw socket that sends `text` and resolves with what it got once the server closes it. */
  // Timeouts short enough for a test to see them fire.
  const QUICK_TIMEOUTS = { headersTimeout: 300, requestTimeout: 600, keepAliveTimeout: 200 };

  function slowClient(port, text) {
    hostileRequests += 1;
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
      let got = '';
      socket.on('data', (chunk) => (got += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve({ got, ms: Date.now() - started }));
    });
  }

  it('answers 408 to a client that never finishes its headers, and hangs up', async (t) => {
    const server = await serveApp({ dir: dist, port: 0, limits: QUICK_TIMEOUTS, env: {} });
    try {
      const { got, ms } = await slowClient(server.address().port, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      assert.match(got, /^HTTP\/1\.1 408/);
      t.diagnostic(`held for ${ms} ms (bound 3000 ms)`);
      assert.ok(ms < 3_000, `held for ${ms} ms`);
    } finally {
      server.close();
    }
  });

  it('closes a kept-alive connection left idle', async (t) => {
    const server = await serveApp({ dir: dist, port: 0, limits: QUICK_TIMEOUTS, env: {} });
    try {
      const { got, ms } = await slowClient(server.address().port, 'GET /main.0123456789.js HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.match(got, /^HTTP\/1\.1 200/);
      t.diagnostic(`held for ${ms} ms (bound 3000 ms)`);
      assert.ok(ms < 3_000, `held for ${ms} ms`);
    } finally {
      server.close();
    }
  });

  it('drops connections past the cap', async () => {
    const server = await serveApp({ dir: dist, port: 0, limits: { maxConnections: 2 }, env: {} });
    const { port } = server.address();
    const idle = [net.connect(port, '127.0.0.1'), net.connect(port, '127.0.0.1')];
    try {
      await Promise.all(idle.map((socket) => new Promise((done) => socket.on('connect', done))));
      await new Promise((done) => setTimeout(done, 100)); // let the server count them
      const third = await slowClient(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.equal(third.got, '');
    } finally {
      for (const socket of idle) socket.destroy();
      server.close();
    }
  });

  /** A raw connection from `from` that is open (or was refused) once this resolves. */
  function openFrom(port, from) {
    return new Promise((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
      socket.on('error', () => {});
      socket.on('connect', () => resolve(socket));
    });
  }
  const closedWithin = (socket, ms) =>
    new Promise((resolve) => {
      if (socket.destroyed) return resolve(true);
      const timer = setTimeout(() => resolve(false), ms);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });

  it('closes a client’s connections past its share at once, and serves the other clients meanwhile', async () => {
    const server = await serveApp({ dir: dist, port: 0, limits: { connectionsPerClient: 3 }, env: {} });
    const { port } = server.address();
    const held = await Promise.all([1, 2, 3].map(() => openFrom(port, '127.0.0.2')));
    try {
      await new Promise((done) => setTimeout(done, 100)); // let the server count them
      const fourth = await openFrom(port, '127.0.0.2');
      assert.equal(await closedWithin(fourth, 1_000), true, 'the fourth connection of 127.0.0.2 stayed open');
      const other = await request(server, '/main.0123456789.js', { from: '127.0.0.1' });
      assert.equal(other.status, 200);
      // A connection given back makes room again.
      held.pop().destroy();
      await new Promise((done) => setTimeout(done, 100));
      assert.equal((await request(server, '/main.0123456789.js', { from: '127.0.0.2' })).status, 200);
    } finally {
      held.forEach((socket) => socket.destroy());
      server.close();
    }
  });

  it('past a client’s share, closes its longest idle kept-alive connection to serve the newcomer (a browser resends on another)', async () => {
    const server = await serveApp({ dir: dist, port: 0, limits: { connectionsPerClient: 3 }, env: {} });
    const { port } = server.address();
    /** A kept-alive connection from 127.0.0.5 that has had one answer and now waits for nothing. */
    const answeredOnce = async () => {
      const socket = await openFrom(port, '127.0.0.5');
      const answered = new Promise((done) => {
        socket.once('data', done);
        socket.once('close', done);
      });
      socket.write('GET /main.0123456789.js HTTP/1.1\r\nHost: x\r\n\r\n');
      await answered;
      return socket;
    };
    const held = [];
    try {
      for (let i = 0; i < 3; i += 1) held.push(await answeredOnce());
      await new Promise((done) => setTimeout(done, 100));
      const fourth = await answeredOnce();
      held.push(fourth);
      assert.equal(fourth.destroyed, false, 'the newcomer was closed');
      assert.equal(await closedWithin(held[0], 1_000), true, 'the longest idle connection stayed open');
      assert.equal(held[1].destroyed || held[2].destroyed || fourth.destroyed, false, 'more than the longest idle was closed');
      // A connection busy with a request is never taken: three silent newcomers hold the share.
      held.forEach((socket) => socket.destroy());
      await new Promise((done) => setTimeout(done, 100));
      const silent = await Promise.all([1, 2, 3].map(() => openFrom(port, '127.0.0.5')));
      held.push(...silent);
      await new Promise((done) => setTimeout(done, 100));
      assert.equal(await closedWithin(await openFrom(port, '127.0.0.5'), 1_000), true, 'a fourth beside three unanswered connections was served');
      assert.equal(silent.some((socket) => socket.destroyed), false);
    } finally {
      held.forEach((socket) => socket.destroy());
      server.close();
    }
  });

  it('does not limit a trusted proxy so (it carries everyone’s connections), only the others', async () => {
    const server = await serveApp({ dir: dist, port: 0, limits: { connectionsPerClient: 1 }, env: { NETNET_TRUSTED_PROXIES: '127.0.0.3' } });
    const { port } = server.address();
    const held = [await openFrom(port, '127.0.0.3'), await openFrom(port, '127.0.0.4')];
    try {
      await new Promise((done) => setTimeout(done, 100));
      assert.equal((await request(server, '/main.0123456789.js', { from: '127.0.0.3' })).status, 200);
      assert.equal(await closedWithin(await openFrom(port, '127.0.0.4'), 1_000), true);
    } finally {
      held.forEach((socket) => socket.destroy());
      server.close();
    }
  });

  it('takes its share per client from NETNET_CONNECTIONS_PER_CLIENT, and refuses nonsense there', async () => {
    await assert.rejects(async () => serveApp({ dir: dist, port: 0, env: { NETNET_CONNECTIONS_PER_CLIENT: 'many' } }), /NETNET_CONNECTIONS_PER_CLIENT/);
    const server = await serveApp({ dir: dist, port: 0, env: { NETNET_CONNECTIONS_PER_CLIENT: '1' } });
    const held = await openFrom(server.address().port, '127.0.0.4');
    try {
      await new Promise((done) => setTimeout(done, 100));
      assert.equal(await closedWithin(await openFrom(server.address().port, '127.0.0.4'), 1_000), true);
    } finally {
      held.destroy();
      server.close();
    }
  });

  it('by default closes a silent connection within 2 s, without an answer a browser would take for its next request', async (t) => {
    const server = await serveApp({ dir: dist, port: 0, env: {} });
    try {
      const { got, ms } = await slowClient(server.address().port, '');
      t.diagnostic(`held for ${ms} ms (bounds ${LIMITS.headersTimeout - 100} and 2000 ms)`);
      assert.ok(ms >= LIMITS.headersTimeout - 100 && ms < 2_000, `held for ${ms} ms`);
      assert.equal(got, '');
    } finally {
      server.close();
    }
  });

  it('answers a request that came in time while the server was busy past the header deadline', async () => {
    const server = await serveApp({ dir: dist, port: 0, env: {} });
    // The whole request is sent at once; the server's event loop is then held for 2 s (a loaded
    // machine, a long GC) before it reads it.
    server.once('connection', () => {
      const until = Date.now() + LIMITS.headersTimeout + 500;
      setImmediate(() => {
        while (Date.now() < until);
      });
    });
    try {
      const { got } = await slowClient(server.address().port, 'GET /main.0123456789.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.match(got, /^HTTP\/1\.1 200/);
    } finally {
      server.close();
    }
  });

  it('by default cuts a body that dribbles in, within 5.5 s', async (t) => {
    const echo = { matches: () => true, handle: async (req, res) => req.resume().on('end', () => res.end('got it')) };
    const server = await serveApp({ dir: dist, port: 0, services: [echo], env: {} });
    hostileRequests += 1;
    try {
      const { got, ms } = await new Promise((resolve) => {
        const started = Date.now();
        const socket = net.connect(server.address().port, '127.0.0.1', () => socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 16384\r\n\r\n'));
        const drip = setInterval(() => socket.writable && socket.write('a'), 100);
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('error', () => {});
        socket.on('close', () => {
          clearInterval(drip);
          resolve({ got: text, ms: Date.now() - started });
        });
      });
      t.diagnostic(`held for ${ms} ms (bound 5500 ms)`);
      assert.ok(ms < 5_500, `held for ${ms} ms`);
      assert.doesNotMatch(got, /got it/);
    } finally {
      server.close();
    }
  });

  it('answers a few pipelined requests in order, and closes a connection that pipelines past the limit', async (t) => {
    const server = await serveApp({ dir: dist, port: 0, limits: { pipelinedRequests: 4 }, env: {} });
    const { port } = server.address();
    const ask = 'GET /main.0123456789.js HTTP/1.1\r\nHost: x\r\n\r\n';
    try {
      const few = await slowClient(port, ask.repeat(3) + 'GET /main.0123456789.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.equal(few.got.match(/HTTP\/1\.1 200/g)?.length, 4);
      const many = await slowClient(port, ask.repeat(50));
      assert.ok((many.got.match(/HTTP\/1\.1 200/g)?.length ?? 0) < 50, 'all 50 pipelined requests were answered');
      t.diagnostic(`held for ${many.ms} ms (bound 3000 ms)`);
      assert.ok(many.ms < 3_000, `held for ${many.ms} ms`);
    } finally {
      server.close();
    }
  });

  it('tells the page server whether the client spoke HTTPS and who it is, believing a trusted proxy only', async () => {
    const pages = async (req, res, facts) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(facts));
    const server = await serveApp({ dir: dist, port: 0, pages, env: { NETNET_TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      const forwarded = { 'x-forwarded-proto': 'https', 'x-real-ip': '203.0.113.7' };
      assert.deepEqual(JSON.parse((await request(server, '/browse', { headers: forwarded, from: '127.0.0.1' })).body), { https: true, client: '203.0.113.7' });
      assert.deepEqual(JSON.parse((await request(server, '/browse', { headers: forwarded, from: '127.0.0.2' })).body), { https: false, client: '127.0.0.2' });
      assert.deepEqual(JSON.parse((await request(server, '/browse', { from: '127.0.0.1' })).body), { https: false, client: '127.0.0.1' });
    } finally {
      server.close();
    }
  });

  it('binds where HOST says', async (t) => {
    // Only a machine without an IPv6 loopback is a reason not to run, and it shows as skipped;
    // a server that fails to bind where a plain socket can is a failure.
    const probe = net.createServer();
    const why = await new Promise((resolve) => {
      probe.once('error', (error) => resolve(error.code));
      probe.listen(0, '::1', () => probe.close(() => resolve(null)));
    });
    if (why) return t.skip(`no IPv6 loopback here (${why})`);

    const server = await serveApp({ dir: dist, port: 0, env: { HOST: '::1' } });
    try {
      assert.equal(server.address().address, '::1');
      assert.equal((await request(server, '/main.0123456789.js', { host: '::1' })).status, 200);
    } finally {
      server.close();
    }
  });
});

describe('trusted proxies', () => {
  const req = (peer, headers = {}) => ({ socket: { remoteAddress: peer }, headers });

  it('reads addresses, CIDR ranges and "loopback", and refuses anything else', () => {
    const trusted = parseTrustedProxies(' 10.0.0.0/8, 192.168.1.7 ,fd00::/8, loopback ');
    for (const address of ['10.1.2.3', '::ffff:10.9.9.9', '192.168.1.7', 'fd12::1', '127.0.0.1', '127.9.0.1', '::1']) assert.equal(trusted.has(address), true, address);
    for (const address of ['11.0.0.1', '192.168.1.8', 'fe80::1', '', undefined]) assert.equal(trusted.has(address), false, String(address));
    assert.equal(parseTrustedProxies('').has('127.0.0.1'), false);
    for (const bad of ['localhost', '10.0.0.0/33', '10.0.0.0/8/1', '1.2.3', '10.0.0.0/x']) assert.throws(() => parseTrustedProxies(bad), /NETNET_TRUSTED_PROXIES/, bad);
  });

  it('takes the client from X-Real-IP, else the nearest untrusted X-Forwarded-For hop, from a trusted proxy only', () => {
    const trusted = parseTrustedProxies('127.0.0.1,10.0.0.0/8');
    assert.equal(clientAddress(req('127.0.0.1', { 'x-real-ip': '203.0.113.9' }), trusted), '203.0.113.9');
    assert.equal(clientAddress(req('127.0.0.1', { 'x-forwarded-for': '198.51.100.1, 203.0.113.9, 10.0.0.5' }), trusted), '203.0.113.9');
    assert.equal(clientAddress(req('::ffff:127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }), trusted), '203.0.113.9');
    // Anyone else's headers are whatever they wrote.
    assert.equal(clientAddress(req('203.0.113.50', { 'x-real-ip': '1.1.1.1', 'x-forwarded-for': '1.1.1.1' }), trusted), '203.0.113.50');
    // Garbage from the proxy leaves the proxy's own address, never the garbage.
    assert.equal(clientAddress(req('127.0.0.1', { 'x-real-ip': 'evil' }), trusted), '127.0.0.1');
    assert.equal(clientAddress(req('127.0.0.1', { 'x-forwarded-for': 'evil, 203.0.113.9' }), trusted), '203.0.113.9');
    assert.equal(clientAddress(req('127.0.0.1', { 'x-forwarded-for': '203.0.113.9, evil' }), trusted), '127.0.0.1');
    assert.equal(clientAddress(req('127.0.0.1'), trusted), '127.0.0.1');
  });

  it('counts an IPv6 client by its /64, an IPv4 one by its address', () => {
    assert.equal(clientKey('2001:db8:1:2:aaaa::1'), clientKey('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    assert.notEqual(clientKey('2001:db8:1:2::1'), clientKey('2001:db8:1:3::1'));
    assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientKey('::1'), '0:0:0:0::/64');
    assert.equal(clientKey('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(clientKey('192.0.2.1'), '192.0.2.1');
  });

  it('believes X-Forwarded-Proto: https from a trusted proxy only', () => {
    const trusted = parseTrustedProxies('loopback');
    assert.equal(viaHttps(req('127.0.0.1', { 'x-forwarded-proto': 'https' }), trusted), true);
    assert.equal(viaHttps(req('127.0.0.1', { 'x-forwarded-proto': 'HTTPS, http' }), trusted), true);
    assert.equal(viaHttps(req('127.0.0.1', { 'x-forwarded-proto': 'http' }), trusted), false);
    assert.equal(viaHttps(req('203.0.113.1', { 'x-forwarded-proto': 'https' }), trusted), false);
    assert.equal(viaHttps({ socket: { remoteAddress: '203.0.113.1', encrypted: true }, headers: {} }, trusted), true);
  });
});

describe('acceptableEncodings', () => {
  it('reads Accept-Encoding’s weights: q=0 refuses, * covers the rest, the heaviest first', () => {
    const codings = (header) => acceptableEncodings(header);
    assert.deepEqual(codings('gzip, deflate, br'), ['br', 'gzip']);
    assert.deepEqual(codings('br;q=0, gzip;q=0, identity'), []);
    assert.deepEqual(codings('br;q=0.4, gzip;q=0.5'), ['gzip', 'br']);
    assert.deepEqual(codings('*;q=0.1, br;q=0'), ['gzip']);
    assert.deepEqual(codings('x-gzip'), ['gzip']);
    assert.deepEqual(codings('br;q=7, gzip'), ['gzip']);
    assert.deepEqual(codings(''), []);
  });
});

after(() => console.log(`# hostile requests sent: ${hostileRequests}`));
