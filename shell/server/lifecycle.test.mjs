// The instance's probes and drain (./lifecycle.ts) on a plain HTTP server on a free
// loopback port: what a load balancer sees while an instance starts, serves and drains.
//   node --import tsx --test shell/server/lifecycle.test.mjs
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLifecycle } from './lifecycle.ts';

/** A server whose /slow answers after `ms`; every other path at once. */
async function startServer(lifecycleOptions, { slowMs = 300 } = {}) {
  const server = http.createServer((req, res) => {
    res.writeEarlyHints?.({ link: ['</main.js>; rel=preload; as=script'] });
    const answer = () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`answered ${req.url}`);
    if (req.url === '/slow') setTimeout(answer, slowMs);
    else answer();
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // No operator variables: this machine may ask the probes, as an instance's default.
  const lifecycle = createLifecycle({ operator: {}, ...lifecycleOptions });
  lifecycle.serve(server);
  return { server, lifecycle, port: server.address().port };
}

/** GET over `agent` (a new connection by default): status, headers, body, informational statuses. */
function get(port, path, agent = false) {
  return new Promise((resolve, reject) => {
    const informational = [];
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body, informational }));
    });
    req.on('information', (info) => informational.push(info.statusCode));
    req.on('error', reject);
  });
}

const refused = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error) => resolve(error.code === 'ECONNREFUSED'));
  });

test('the readiness probe says ready while serving and draining once drained; liveness stays up', async () => {
  const { lifecycle, port } = await startServer({ idleGraceMs: 200 });
  const [first, second] = [1, 2].map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const ready = await get(port, '/healthz', first);
  assert.equal(ready.status, 200);
  assert.equal(JSON.parse(ready.body).status, 'ready');
  assert.equal((await get(port, '/livez', second)).status, 200);
  const draining = lifecycle.drain();
  // Connections kept alive from before still answer, each told it is the last request on it.
  const readiness = await get(port, '/healthz', first);
  assert.equal(readiness.status, 503);
  assert.equal(JSON.parse(readiness.body).status, 'draining');
  assert.equal(readiness.headers.connection, 'close');
  const liveness = await get(port, '/livez', second);
  assert.equal(liveness.status, 200);
  assert.equal(JSON.parse(liveness.body).status, 'draining');
  await draining;
  assert.equal(lifecycle.state, 'stopped');
});

test('a drain refuses new connections at once, finishes the request in flight, then ends', async () => {
  const { lifecycle, port } = await startServer({ idleGraceMs: 100 }, { slowMs: 400 });
  const inFlight = get(port, '/slow');
  await sleep(50);
  const drained = lifecycle.drain().then(() => Date.now());
  assert.equal(await refused(port), true, 'a new connection is refused while draining');
  const answer = await inFlight;
  assert.equal(answer.status, 200);
  assert.equal(answer.body, 'answered /slow');
  assert.equal(answer.headers.connection, 'close', 'the in-flight answer closes its connection');
  const finished = Date.now();
  assert.ok((await drained) - finished < 1_000, 'the drain ends once the last connection has');
});

test('idle kept-alive connections stay open for the grace period, then are closed', async () => {
  const { lifecycle, port } = await startServer({ idleGraceMs: 300 });
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  await once(socket, 'data');
  const started = Date.now();
  const drained = lifecycle.drain();
  await once(socket, 'close');
  const idleFor = Date.now() - started;
  assert.ok(idleFor >= 250, `an idle connection was closed after ${idleFor} ms, before the grace period`);
  await drained;
});

test('a request in flight past the drain timeout is cut', async () => {
  const { lifecycle, port } = await startServer({ idleGraceMs: 50, drainTimeoutMs: 200 }, { slowMs: 5_000 });
  const hanging = get(port, '/slow').then(
    () => 'answered',
    () => 'cut',
  );
  await sleep(50);
  const started = Date.now();
  await lifecycle.drain();
  assert.ok(Date.now() - started < 1_500);
  assert.equal(await hanging, 'cut');
});

test('Early Hints go as Link headers on the response, never as a 103, when asked', async () => {
  const asLinks = await startServer({ hintsAsLinkHeaders: true, idleGraceMs: 50 });
  const page = await get(asLinks.port, '/');
  assert.equal(page.headers.link, '</main.js>; rel=preload; as=script');
  assert.deepEqual(page.informational, []);
  await asLinks.lifecycle.drain();

  const as103 = await startServer({ idleGraceMs: 50 });
  const hinted = await get(as103.port, '/');
  assert.deepEqual(hinted.informational, [103]);
  assert.equal(hinted.headers.link, undefined);
  await as103.lifecycle.drain();
});
