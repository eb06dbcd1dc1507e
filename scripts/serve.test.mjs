// The static servers (scripts/serve.mjs) under hostile requests, as the attack review sent them:
// a real server on an ephemeral port, raw request paths (no client-side normalization), a deploy
// tree with a secret beside the releases and links pointing out of it. Run: node --test scripts/
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { isReleaseFile } from '../control-plane/src/deploy/tree.mjs';
import { serveApp } from './serve.mjs';

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
  write(join(deploy, 'remote-title/1.1.0/remoteEntry.js'), 'unfinished'); // no manifest yet
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

/** One request with the path sent exactly as written. */
function request(server, path, { method = 'GET', headers = {} } = {}) {
  const { port } = server.address();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
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

describe('the releases origin', () => {
  let server;
  before(async () => {
    server = await serveApp({
      dir: deploy,
      port: 0,
      cors: true,
      only: (path) => isReleaseFile(path, { NETNET_DEPLOY_DIR: deploy }),
    });
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
    // traversal, plain and encoded, to the rollout file and the .env beside the releases
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

  it('still answers a CORS preflight', async () => {
    const response = await request(server, '/remote-title/1.0.0/remoteEntry.js', { method: 'OPTIONS' });
    assert.equal(response.status, 204);
    assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
  });
});

describe('an app server (the shell)', () => {
  let server;
  before(async () => {
    // A service answering its own path, whatever the method (as the release health collector does).
    const echo = {
      matches: (req) => req.url === '/health/reports',
      handle: async (req, res) => res.writeHead(202, { 'Content-Type': 'text/plain' }).end(`took ${req.method}`),
    };
    server = await serveApp({ dir: dist, port: 0, spa: true, documents: { '/config.json': () => ({ ok: true }) }, services: [echo] });
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

  it('answers 408 to a client that never finishes its headers, and hangs up', async () => {
    const server = await serveApp({ dir: dist, port: 0, limits: QUICK_TIMEOUTS });
    try {
      const { got, ms } = await slowClient(server.address().port, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      assert.match(got, /^HTTP\/1\.1 408/);
      assert.ok(ms < 3_000, `held for ${ms} ms`);
    } finally {
      server.close();
    }
  });

  it('closes a kept-alive connection left idle', async () => {
    const server = await serveApp({ dir: dist, port: 0, limits: QUICK_TIMEOUTS });
    try {
      const { got, ms } = await slowClient(server.address().port, 'GET /main.0123456789.js HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.match(got, /^HTTP\/1\.1 200/);
      assert.ok(ms < 3_000, `held for ${ms} ms`);
    } finally {
      server.close();
    }
  });

  it('drops connections past the cap', async () => {
    const server = await serveApp({ dir: dist, port: 0, limits: { maxConnections: 2 } });
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

  it('binds where HOST says', async () => {
    const saved = process.env.HOST;
    process.env.HOST = '::1';
    const server = await serveApp({ dir: dist, port: 0 }).catch(() => null);
    if (saved === undefined) delete process.env.HOST;
    else process.env.HOST = saved;
    if (!server) return; // no IPv6 loopback on this machine
    try {
      assert.equal(server.address().address, '::1');
    } finally {
      server.close();
    }
  });
});

after(() => console.log(`# hostile requests sent: ${hostileRequests}`));
