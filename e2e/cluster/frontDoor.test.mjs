// The front door on its own (docs/deploy.md): the generated nginx configuration
// (site/cluster/nginxConfig.mjs) in a real nginx, on free loopback ports, in front of stand-in
// instances (./fakeInstance.mjs) kept by the cluster's own supervisor (site/cluster/instances.mjs),
// and serving a made-up checkout. It needs no build and no port of the site, so it runs beside
// anything: files, headers and limits; retries of a GET, never of a POST; kill -9 and rolling
// restarts under load with nothing failed.
//   node --test e2e/cluster/frontDoor.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { prepareNginx } from '../../site/cluster/frontDoor.mjs';
import { ensureNginx, NGINX } from '../../site/cluster/install.mjs';
import { superviseInstances } from '../../site/cluster/instances.mjs';
import { steadyLoad } from '../bench/steadyLoad.mjs';
import { getFrom } from '../support/loopbackClients.mjs';

const site = (await import('@netnet/site')).default;
const FAKE = new URL('./fakeInstance.mjs', import.meta.url).pathname;
const FRONT_DOOR_SECRET = 'front-door-secret-of-the-test';
const SCRIPT = 'console.log("netnet");'.repeat(200);
const HASHED_JS = 'main.0123456789.js';
const PAGES_PER_CLIENT = 4;
const TICKETS_BURST = 20;

async function freePort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A checkout with built files for the shell and each remote (releases are the instances' to answer). */
function madeUpCheckout(dir) {
  const write = (path, text) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const withCopies = (path, text) => {
    write(path, text);
    write(`${path}.br`, brotliCompressSync(text));
    write(`${path}.gz`, gzipSync(text));
  };
  for (const app of site.webApps) {
    withCopies(`${app}/dist/${HASHED_JS}`, SCRIPT);
    write(`${app}/dist/index.html`, '<!doctype html><title>Netnet</title>');
    write(`${app}/dist/mf-manifest.json`, '{}');
    write(`${app}/dist/remoteEntry.js`, SCRIPT);
    write(`${app}/dist/server/remoteEntry.js`, 'module.exports = {};');
  }
}

let dir;
let nginx;
let instances;
const ports = {};
let origin;

before(async () => {
  ensureNginx();
  dir = mkdtempSync(join(tmpdir(), 'netnet-frontdoor-'));
  // nginx's workers run as www-data when the test runs as root: they must read the folder.
  chmodSync(dir, 0o755);
  madeUpCheckout(dir);
  for (const name of ['shell', 'deploy', ...site.remotes]) ports[name] = await freePort();
  const instancePorts = [await freePort(), await freePort()];
  origin = `http://127.0.0.1:${ports.shell}`;
  instances = superviseInstances({ ports: instancePorts, entry: FAKE, env: () => ({ NETNET_EARLY_HINTS: 'link' }), log: () => {} });
  await instances.start();
  const { args } = prepareNginx({
    instancePorts,
    prefix: join(dir, 'nginx'),
    siteRoot: dir,
    ports,
    host: '127.0.0.1',
    // The origins of the site table, as nothing overrides them here.
    siteSettings: site.readSite({}),
    // Low enough for the test to reach with a handful of requests.
    limits: { reportsPerSecond: 1, reportsBurst: 5, pagesPerClient: PAGES_PER_CLIENT, ticketsPerSecond: 5, ticketsBurst: TICKETS_BURST },
    frontDoorSecret: FRONT_DOOR_SECRET,
  });
  nginx = spawn(NGINX, args, { stdio: 'inherit' });
  for (let tries = 0; tries < 100; tries += 1) {
    if (await fetch(`${origin}/${HASHED_JS}`).then((r) => r.ok, () => false)) return;
    await sleep(50);
  }
  throw new Error(`nginx did not start: ${readFileSync(join(dir, 'nginx', 'logs', 'error.log'), 'utf8')}`);
});

after(async () => {
  nginx?.kill('SIGTERM');
  await instances?.stop();
  if (nginx) await new Promise((resolve) => (nginx.exitCode !== null ? resolve() : nginx.once('exit', resolve)));
  rmSync(dir, { recursive: true, force: true });
});

const get = (url, headers = {}) => fetch(url, { headers, redirect: 'manual' });

test('hashed files are immutable and sent precompressed, brotli first', async () => {
  const br = await get(`${origin}/${HASHED_JS}`, { 'Accept-Encoding': 'gzip, br' });
  assert.equal(br.status, 200);
  assert.equal(br.headers.get('content-encoding'), 'br');
  assert.equal(br.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.match(br.headers.get('vary') ?? '', /Accept-Encoding/);
  assert.equal(br.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(await br.text(), SCRIPT, 'the brotli copy decodes to the file');
  const gz = await get(`${origin}/${HASHED_JS}`, { 'Accept-Encoding': 'gzip' });
  assert.equal(gz.headers.get('content-encoding'), 'gzip');
  const plain = await get(`${origin}/${HASHED_JS}`, { 'Accept-Encoding': 'identity' });
  assert.equal(plain.headers.get('content-encoding'), null);
  assert.equal(plain.headers.get('content-length'), String(SCRIPT.length));
});

test('entry documents are no-cache; the shell index.html carries the document policy; server code is not served', async () => {
  for (const path of ['/mf-manifest.json', '/remoteEntry.js']) {
    assert.equal((await get(`${origin}${path}`)).headers.get('cache-control'), 'no-cache', path);
  }
  const index = await get(`${origin}/index.html`);
  assert.equal(index.headers.get('cache-control'), 'no-cache');
  assert.match(index.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  assert.equal(index.headers.get('x-frame-options'), 'DENY');
  assert.equal((await get(`${origin}/server/remoteEntry.js`)).status, 404);
  for (const path of ['/healthz', '/livez', '/metrics']) assert.equal((await get(`${origin}${path}`)).status, 404, `an instance's ${path} is not the public's`);
  assert.equal((await get(`${origin}/missing.0123456789.js`)).status, 404, 'a missing file is not a page');
});

test("each remote's origin answers with CORS, and preflights", async () => {
  const remote = `http://127.0.0.1:${ports[site.remotes[0]]}`;
  const entry = await get(`${remote}/remoteEntry.js`);
  assert.equal(entry.headers.get('access-control-allow-origin'), '*');
  assert.equal(entry.headers.get('cache-control'), 'no-cache');
  const preflight = await fetch(`${remote}/remoteEntry.js`, { method: 'OPTIONS' });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
  assert.equal((await get(`${remote}/`)).headers.get('content-type'), 'text/html; charset=utf-8');
});

test("the releases' origin is the instances' /releases/ route, its headers, encodings and 304s passed through as they are", async () => {
  const releases = `http://127.0.0.1:${ports.deploy}`;
  const path = '/remote-auth/1.2.0/273.abcdef0123.js';
  const hashed = await get(`${releases}${path}`, { 'Accept-Encoding': 'gzip, br' });
  assert.equal(hashed.status, 200);
  assert.equal((await hashed.json()).path, `/releases${path}`, 'asked of an instance under /releases/');
  assert.equal(hashed.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  // Once each: nginx adds no header of its own to the instance's.
  assert.equal(hashed.headers.get('access-control-allow-origin'), '*');
  assert.equal(hashed.headers.get('content-type'), 'text/javascript', 'no charset added');
  assert.equal(hashed.headers.get('content-encoding'), 'br', "the browser's Accept-Encoding reached the instance");
  assert.equal(hashed.headers.get('vary'), 'Accept-Encoding');
  const etag = hashed.headers.get('etag');
  assert.ok(etag);
  const again = await get(`${releases}${path}`, { 'Accept-Encoding': 'gzip, br', 'If-None-Match': etag });
  assert.equal(again.status, 304, "the instance's 304, not a cached 200");
  assert.equal(again.headers.get('etag'), etag);
  const entry = await get(`${releases}/remote-auth/1.2.0/remoteEntry.js`, { 'Accept-Encoding': 'identity' });
  assert.equal(entry.headers.get('cache-control'), 'no-cache');
  assert.equal(entry.headers.get('content-encoding'), null);
  const preflight = await fetch(`${releases}${path}`, { method: 'OPTIONS' });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
  // The site's own origin answers them too, under /releases/ (a page may name either).
  assert.equal((await (await get(`${origin}/releases${path}`)).json()).path, `/releases${path}`);
});

test('pages go to the instances, with the client named and Early Hints as Link headers, over kept-alive connections', async () => {
  const seen = new Set();
  for (let i = 0; i < 10; i += 1) {
    const page = await get(`${origin}/browse`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('link'), '</main.0123456789.js>; rel=preload; as=script');
    seen.add((await page.text()).match(/page from (\d+)/)?.[1]);
  }
  assert.equal(seen.size, 2, 'both instances answer pages');
  const { headers } = await (await get(`${origin}/headers`, { 'X-Forwarded-For': '203.0.113.9', 'X-Netnet-Front-Door': 'forged' })).json();
  // nginx says it is the front door with the secret it was given, whatever the client sent.
  assert.equal(headers['x-netnet-front-door'], FRONT_DOOR_SECRET);
  assert.equal(headers['x-real-ip'], '127.0.0.1');
  assert.equal(headers['x-forwarded-for'], '203.0.113.9, 127.0.0.1');
  assert.equal(headers['x-forwarded-proto'], 'http');
  assert.equal(headers.connection, undefined, 'nginx keeps its connections to the instances alive');
});

test('nginx limits release-health reports per client and refuses bodies over 16 KB', async () => {
  const post = (body = '{"reports":[]}') => fetch(`${origin}/health/reports`, { method: 'POST', body, headers: { 'Content-Type': 'text/plain' } });
  const statuses = await Promise.all(Array.from({ length: 12 }, () => post().then((r) => r.status)));
  assert.ok(statuses.filter((status) => status === 204).length <= 6, `at most the burst went through: ${statuses}`);
  assert.ok(statuses.includes(429), `the rest were refused: ${statuses}`);
  await sleep(1_100);
  assert.equal((await post('x'.repeat(17 * 1024))).status, 413);
});

test('one client gets a few page renders at once and 429 past them, while another client is served', async () => {
  const greedy = Array.from({ length: 12 }, () => getFrom(origin, '/slow?ms=800', { client: 100 }));
  await sleep(200);
  const other = await getFrom(origin, '/slow?ms=10', { client: 101 });
  const statuses = (await Promise.all(greedy)).map(({ status }) => status);
  assert.equal(other.status, 200, 'the other client was served');
  assert.equal(statuses.filter((status) => status === 200).length, PAGES_PER_CLIENT, `${statuses}`);
  assert.equal(statuses.filter((status) => status === 429).length, 12 - PAGES_PER_CLIENT, `${statuses}`);
});

test('one client gets a burst of pages and maps (each a release-health ticket), then 429, while another client is served', async () => {
  const statuses = [];
  for (let i = 0; i < TICKETS_BURST + 10; i += 1) statuses.push((await getFrom(origin, i % 2 ? '/remotes.json' : '/browse', { client: 110 })).status);
  assert.ok(statuses.filter((status) => status === 200).length <= TICKETS_BURST + 2, `at most the burst (and what the rate added) went through: ${statuses}`);
  assert.ok(statuses.slice(-5).every((status) => status === 429), `then 429: ${statuses}`);
  assert.equal((await getFrom(origin, '/browse', { client: 111 })).status, 200, 'another client is served');
});

test('every batch of one ticket reaches the same instance (routed by ?k=)', async () => {
  /** POSTs so far per instance. */
  const postsByInstance = async () => {
    const counts = new Map();
    while (counts.size < 2) {
      const { pid, posts } = await (await get(`${origin}/posts`)).json();
      counts.set(pid, posts);
    }
    return counts;
  };
  // The reports' bucket (1/s, burst 5 here) refilled after the tests before.
  await sleep(4_500);
  const before = await postsByInstance();
  const statuses = [];
  for (let i = 0; i < 4; i += 1) {
    const response = await fetch(`${origin}/health/reports?k=the-same-ticket1`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'text/plain' } });
    statuses.push(response.status);
  }
  assert.deepEqual(statuses, [204, 204, 204, 204]);
  const after = await postsByInstance();
  const added = [...after].map(([pid, posts]) => posts - (before.get(pid) ?? 0)).sort();
  assert.deepEqual(added, [0, 4], 'all four on one instance; round robin would have split them');
});

test('a POST an instance dropped is never sent to another instance', async () => {
  const postsOf = async () => {
    const counts = new Map();
    while (counts.size < 2) {
      const { pid, posts } = await (await get(`${origin}/posts`)).json();
      counts.set(pid, posts);
    }
    return [...counts.values()].reduce((a, b) => a + b, 0);
  };
  await sleep(1_100);
  const before = await postsOf();
  const dying = await fetch(`${origin}/health/reports?die=1`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'text/plain' } });
  assert.equal(dying.status, 502);
  assert.equal((await postsOf()) - before, 1, 'the POST reached one instance only');
});

/**
 * GETs of `path` at `rate` a second for `seconds` while `during()` runs, from 40 clients (as many
 * members, each under nginx's per-client page limit); what failed.
 */
async function underLoad({ rate, seconds, path = '/browse' }, during) {
  let sent = 0;
  const load = steadyLoad({
    rate,
    duration: seconds,
    send: async () => {
      sent += 1;
      const { status } = await getFrom(origin, path, { client: sent % 40, timeoutMs: 10_000 });
      if (status !== 200) throw new Error(`status ${status}`);
      return status;
    },
  });
  await during();
  const { samples, failures } = await load;
  return { answered: samples.length, failures };
}

test('kill -9 of an instance under load fails no GET, and the instance is replaced', async () => {
  const { answered, failures } = await underLoad({ rate: 100, seconds: 4, path: '/slow?ms=20' }, async () => {
    await sleep(1_000);
    const [victim] = instances.snapshot().instances;
    process.kill(victim.pid, 'SIGKILL');
    for (let i = 0; i < 100 && instances.snapshot().instances[0].pid === victim.pid; i += 1) await sleep(50);
    assert.notEqual(instances.snapshot().instances[0].pid, victim.pid, 'the supervisor started a new one');
  });
  assert.deepEqual(failures, []);
  assert.equal(answered, 400);
  for (let i = 0; i < 100 && instances.snapshot().instances[0].state !== 'ready'; i += 1) await sleep(50);
  assert.equal(instances.snapshot().instances[0].state, 'ready');
});

test('a rolling restart of every instance under load fails no request, GET or POST', async () => {
  const before = instances.snapshot().instances.map((instance) => instance.pid);
  await sleep(1_500);
  let posted = 0;
  const postFailures = [];
  const { answered, failures } = await underLoad({ rate: 100, seconds: 8, path: '/slow?ms=50' }, async () => {
    const restart = instances.rollingRestart();
    // Beacons keep arriving meanwhile, each its own client address for nginx's limit
    // (all of 127.0.0.0/8 is this machine).
    while (instances.snapshot().rolling) {
      posted += 1;
      const status = await postFrom(`127.0.0.${2 + (posted % 200)}`).catch((error) => error.message);
      if (status !== 204) postFailures.push(status);
      await sleep(20);
    }
    await restart;
  });
  const afterPids = instances.snapshot().instances.map((instance) => instance.pid);
  assert.ok(afterPids.every((pid, i) => pid !== before[i] && pid !== null), 'every instance was replaced');
  assert.deepEqual(failures, []);
  assert.equal(answered, 800);
  assert.ok(posted > 50, `${posted} reports were sent during the restart`);
  assert.deepEqual(postFailures, []);
});

/** A POST to /health/reports from a loopback address of its own: its status. */
function postFrom(localAddress) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: ports.shell, localAddress });
    socket.setTimeout(5_000, () => socket.destroy(new Error('timed out')));
    socket.on('error', reject);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(Number(answer.split(' ')[1])));
    socket.write('POST /health/reports HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
  });
}
