// The releases route's memory of hot files (./hotFiles.ts): an LRU bounded by bytes, and the
// route answering a hashed file from it (and only a hashed one, only while its release is listed).
// Run: node --import tsx --test shell/server/hotFiles.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { createHotFiles } from './hotFiles.ts';
import { serveApp } from './httpServer.ts';

const hotOf = (bytes) => ({ file: { name: '/x', real: '/x', stats: { size: bytes }, encoding: null }, body: Buffer.alloc(bytes) });

describe('createHotFiles', () => {
  it('keeps files up to its bound in bytes, letting the least recently used go first', () => {
    const hot = createHotFiles({ maxBytes: 800 });
    hot.set('a', hotOf(100));
    hot.set('b', hotOf(100));
    hot.set('c', hotOf(100));
    assert.deepEqual(hot.usage(), { files: 3, bytes: 300 });
    assert.ok(hot.get('a'), 'a is kept, and now the most recently used');
    for (const key of ['d', 'e', 'f', 'g', 'h']) hot.set(key, hotOf(100));
    assert.deepEqual(hot.usage(), { files: 8, bytes: 800 });
    hot.set('i', hotOf(100));
    assert.equal(hot.get('b'), undefined, 'b, the least recently used, went');
    assert.ok(hot.get('a'), 'a, used after b, stays');
    assert.deepEqual(hot.usage(), { files: 8, bytes: 800 });
  });

  it('never keeps a file over an eighth of its bound, so one big file cannot push out the hot ones', () => {
    const hot = createHotFiles({ maxBytes: 800 });
    hot.set('small', hotOf(100));
    assert.equal(hot.keeps(101), false);
    hot.set('big', hotOf(101));
    assert.equal(hot.get('big'), undefined);
    assert.ok(hot.get('small'));
    assert.deepEqual(hot.usage(), { files: 1, bytes: 100 });
  });

  it('counts a key set again once', () => {
    const hot = createHotFiles({ maxBytes: 800 });
    hot.set('a', hotOf(100));
    hot.set('a', hotOf(50));
    assert.deepEqual(hot.usage(), { files: 1, bytes: 50 });
  });
});

describe('the releases route with hot files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'netnet-hot-'));
  const release = join(dir, 'remote-title', '1.0.0');
  const HASHED = '/releases/remote-title/1.0.0/main.0123456789.js';
  const ENTRY = '/releases/remote-title/1.0.0/remoteEntry.js';
  let listed = true;
  let server;
  let hot;
  const write = () => {
    mkdirSync(release, { recursive: true });
    writeFileSync(join(release, 'main.0123456789.js'), '/* hashed */');
    writeFileSync(join(release, 'main.0123456789.js.br'), brotliCompressSync('/* hashed */'));
    writeFileSync(join(release, 'remoteEntry.js'), '/* entry */');
  };
  const get = (path, headers = {}) =>
    new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: server.address().port, path, headers, agent: false }, (res) => {
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  before(async () => {
    write();
    hot = createHotFiles();
    // The release is listed while `listed`; its folder need not be there once a file is hot.
    const releases = { prefix: '/releases', dir, hot, has: async (remote, version) => listed && remote === 'remote-title' && version === '1.0.0' };
    server = await serveApp({ dir, port: 0, releases, env: {} });
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a hashed file from memory once asked for, with the same headers and validators, per encoding', async () => {
    const first = await get(HASHED);
    const packed = await get(HASHED, { 'accept-encoding': 'br' });
    assert.equal(hot.usage().files, 2, 'the plain and the brotli answer are kept apart');
    rmSync(release, { recursive: true });
    const again = await get(HASHED);
    assert.equal(again.status, 200);
    assert.equal(again.body.toString(), '/* hashed */');
    for (const header of ['etag', 'last-modified', 'cache-control', 'content-type', 'content-length', 'access-control-allow-origin']) {
      assert.equal(again.headers[header], first.headers[header], header);
    }
    const packedAgain = await get(HASHED, { 'accept-encoding': 'br' });
    assert.equal(packedAgain.headers['content-encoding'], 'br');
    assert.deepEqual(packedAgain.body, packed.body);
    assert.equal((await get(HASHED, { 'if-none-match': first.headers.etag })).status, 304);
    write();
  });

  it('never keeps a file whose name has no hash: it is read again each time', async () => {
    assert.equal((await get(ENTRY)).status, 200);
    rmSync(join(release, 'remoteEntry.js'));
    assert.equal((await get(ENTRY)).status, 404);
    write();
  });

  it('answers nothing from memory for a release no longer listed', async () => {
    assert.equal((await get(HASHED)).status, 200);
    listed = false;
    try {
      assert.equal((await get(HASHED)).status, 404);
    } finally {
      listed = true;
    }
  });
});
