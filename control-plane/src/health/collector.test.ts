// The collector over real HTTP: what it counts, what it refuses (and that refusals change no
// figure), its rate limit, and the OTLP export.
// Run: node --import tsx --test control-plane/src/health/collector.test.ts
import assert from 'node:assert/strict';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createCollector, routingKey, type Collector, type CollectorOptions } from './collector.ts';
import { createFigures, type Counted, type FiguresJson } from './figures.ts';
import { readConfig, parseTrustedProxies } from '@netnet/server-kit';
import { metricsPayload, otlpEndpoint, otlpHeaders, OTLP_VARIABLES } from './otlp.ts';
import { NETWORK_RULES, networkOf, networkTag } from './network.ts';
import { deviceTag, issueTicket, type TicketRelease } from './ticket.ts';
import { createHealthStore, readFigures, type HealthStore } from './counts.ts';
import { testDatabase, type TestDatabase } from '../store/testDatabase.ts';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
// Reports as a browser might send them, made-up fields included: the collector is to refuse those.
const report = (overrides: Record<string, unknown> = {}) => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'loaded', ...overrides });
const SECRETS = [Buffer.alloc(32, 7)];
/** A ticket as the site's server signs it for a page load given these releases. */
/** The network tag of an address, as the ticket service writes it into a ticket. */
const networkOfAddress = (address: string) => networkTag(SECRETS, networkOf(address));
let devices = 0;
/** By default a device of its own and the network of the tests' requests (127.0.0.0/24). */
const ticketFor = (
  releases: TicketRelease[],
  { now = T0, device = deviceTag(SECRETS, `device-${(devices += 1)}`), secrets = SECRETS, network = networkOfAddress('127.0.0.1') } = {} as {
    now?: number;
    device?: string | null;
    secrets?: Buffer[];
    network?: string;
  },
) => issueTicket({ secrets, releases, device, now, network });
/** The releases some reports name, as a page given them would have had them on its ticket. */
function releasesOf(reports: unknown[]): TicketRelease[] {
  const named = new Map<string, TicketRelease>();
  for (const item of reports) {
    const { remote, release, channel } = item as Record<string, unknown>;
    if (typeof remote === 'string' && typeof release === 'string' && typeof channel === 'string') named.set(`${remote} ${release} ${channel}`, { remote, version: release, channel });
  }
  return named.size > 0 ? [...named.values()] : [{ remote: 'remote-title', version: '1.4.0', channel: 'canary' }];
}
/** A page load's batch: the reports with a ticket naming their releases (a fresh page load each call). */
const batch = (...reports: unknown[]) => batchFrom('127.0.0.1', ...reports);
/** batch() of a page load whose ticket was issued to this client address. */
const batchFrom = (client: string, ...reports: unknown[]) => {
  const list = reports.length ? reports : [report()];
  return JSON.stringify({ ticket: ticketFor(releasesOf(list), { network: networkOfAddress(client) }), reports: list });
};

function listen(handler: RequestListener): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

/** The OTLP JSON as a backend reads it. */
interface OtlpBody {
  resourceMetrics: {
    resource: { attributes: unknown[] };
    scopeMetrics: {
      metrics: {
        name: string;
        sum?: { aggregationTemporality: number; isMonotonic: boolean; dataPoints: { attributes: unknown[] }[] };
        gauge?: { dataPoints: { asDouble: number | null }[] };
      }[];
    }[];
  }[];
}

interface Answer {
  status: number | undefined;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A request with full control of headers and body (fetch would set its own). */
function send(
  port: number,
  {
    method = 'POST',
    path = '/health/reports',
    headers = {},
    body,
    chunks,
    from,
  }: { method?: string; path?: string; headers?: Record<string, string>; body?: string; chunks?: string[]; from?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, localAddress: from, headers: { 'Content-Type': 'text/plain;charset=UTF-8', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    if (chunks) chunks.forEach((chunk) => req.write(chunk));
    req.end(body);
  });
}

// One real PostgreSQL for the whole file; each test counts into an environment of its own.
let database: TestDatabase;
let environments = 0;
before(async () => {
  database = await testDatabase();
});
after(() => database.close());

describe('the collector', () => {
  let environment: string;
  let store: HealthStore | undefined;
  let collector: Collector;
  let server: Server | undefined;
  let port: number;
  let at: number;
  const rate: { perSecond?: number; burst?: number; maxClients?: number } = {};

  beforeEach(async () => {
    await store?.close();
    server?.close();
    at = T0;
    environment = `collector-${(environments += 1)}`;
    store = createHealthStore({ db: database.pool, environment });
    collector = createCollector({ store, secrets: SECRETS, now: () => at, rate, isKnownRelease: (_remote, release) => release !== '6.6.6' });
    server = await listen((req, res) => collector.handle(req, res));
    port = portOf(server);
  });
  after(async () => {
    await store?.close();
    server?.close();
  });

  const figures = () => JSON.stringify(collector.figures().toJSON());

  it('counts a beacon (text/plain) and a fetch (application/json) and answers 204', async () => {
    assert.equal((await send(port, { body: batch(report(), report({ outcome: 'fell-back', vitals: { lcp: 2500 } })) })).status, 204);
    assert.equal((await send(port, { body: batch(report({ channel: 'stable', release: '1.3.0' })), headers: { 'Content-Type': 'application/json; charset=utf-8' } })).status, 204);
    const canary = collector.figures().series('remote-title', '1.4.0', 'canary');
    assert.equal(canary?.totals.sessions, 2);
    assert.equal(canary?.totals.failures, 1);
    assert.equal(collector.figures().series('remote-title', '1.3.0', 'stable')?.totals.sessions, 1);
    // In the database before the 204: what the guard reads there is the same.
    const stored = await readFigures(database.pool, environment, { now: at });
    const bySeries = (json: FiguresJson) => json.series.map((series) => JSON.stringify(series)).sort();
    assert.deepEqual(bySeries(stored.toJSON()), bySeries(collector.figures().toJSON()));
  });

  it('refuses garbage with 400 and a short JSON error, and the figures do not move', async () => {
    await send(port, { body: batch() });
    const before = figures();
    for (const body of ['', 'hello', '{"reports":[]}', batch(report({ uid: 'u1' })), batch(report(), report({ release: 'latest' })), batch(report({ release: '6.6.6' }))]) {
      const response = await send(port, { body });
      assert.equal(response.status, 400, body);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(typeof response.body.error, 'string');
    }
    assert.equal(figures(), before);
  });

  it('refuses other content types (415), other methods (405), other sites (403) and other paths (404)', async () => {
    const before = figures();
    assert.equal((await send(port, { body: batch(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status, 415);
    assert.equal((await send(port, { body: batch(), headers: { 'Content-Type': 'multipart/form-data; boundary=x' } })).status, 415);
    const get = await send(port, { method: 'GET' });
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST');
    assert.equal((await send(port, { body: batch(), headers: { 'Sec-Fetch-Site': 'cross-site' } })).status, 403);
    assert.equal((await send(port, { body: batch(), headers: { 'Sec-Fetch-Site': 'same-origin' } })).status, 204);
    assert.equal((await send(port, { path: '/health/other', body: batch() })).status, 404);
    assert.equal((await send(port, { path: '/health/reports?x=1', body: batch() })).status, 204);
    assert.notEqual(figures(), before);
  });

  it('refuses a body over 16 KB with 413, declared or streamed', async () => {
    const big = 'x'.repeat(17 * 1024);
    assert.equal((await send(port, { body: big })).status, 413);
    const streamed = await send(port, { headers: { 'Transfer-Encoding': 'chunked' }, chunks: Array.from({ length: 40 }, () => 'y'.repeat(1024)) }).catch((error) => error);
    // Either the 413 arrives, or the connection is closed mid-upload; never a 204.
    assert.ok(streamed.status === 413 || streamed.code === 'ECONNRESET' || streamed.code === 'EPIPE', String(streamed.status ?? streamed.code));
    assert.deepEqual(collector.figures().list(), []);
  });

  it('answers 503 and counts nothing when the store cannot write', async () => {
    const failing = { figures: createFigures(), append: async () => Promise.reject(new Error('disk full')) };
    const other = createCollector({ store: failing, secrets: SECRETS, now: () => T0 });
    const otherServer = await listen((req, res) => other.handle(req, res));
    const response = await send(portOf(otherServer), { body: batch() });
    otherServer.close();
    assert.equal(response.status, 503);
    assert.deepEqual(failing.figures.list(), []);
    assert.deepEqual(other.counters().reports, []);
    assert.deepEqual(other.counters().refused, [{ status: 503, count: 1 }]);
  });

  it('limits each client to its rate: a burst of 40, then 20 a second', async () => {
    const statuses = [];
    for (let i = 0; i < 41; i += 1) statuses.push((await send(port, { body: batch() })).status);
    assert.deepEqual(statuses.slice(0, 40), Array(40).fill(204));
    const limited = await send(port, { body: batch() });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], '1');
    at += 1000;
    const next = [];
    for (let i = 0; i < 21; i += 1) next.push((await send(port, { body: batch() })).status);
    assert.deepEqual(next, [...Array(20).fill(204), 429]);
    // Of the 60 batches let through, all from one network, the network's hourly cap counted 10.
    assert.equal(collector.figures().series('remote-title', '1.4.0', 'canary')?.totals.sessions, NETWORK_RULES.sessionsPerHour);
  });
});

describe('the rate limit key', () => {
  it('is what clientOf says, so members behind one proxy do not share a bucket', async () => {
    const store = { figures: createFigures(), append: async () => {} };
    const collector = createCollector({ store, secrets: SECRETS, now: () => T0, clientOf: (req) => String(req.headers['x-client']) });
    const server = await listen((req, res) => collector.handle(req, res));
    const port = portOf(server);
    const statuses = async (client: string, count: number) => {
      const list: (number | undefined)[] = [];
      for (let i = 0; i < count; i += 1) list.push((await send(port, { body: batch(), headers: { 'X-Client': client } })).status);
      return list;
    };
    assert.deepEqual((await statuses('a', 41)).slice(38), [204, 204, 429]);
    assert.deepEqual(await statuses('b', 2), [204, 204]);
    server.close();
  });
});

describe('what is charged to a client', () => {
  /** A collector on a store that keeps nothing, for the rate limits alone. */
  async function collectorWith(options: Omit<CollectorOptions, 'store' | 'secrets'>) {
    const store = { figures: createFigures(), append: async () => {} };
    const collector = createCollector({ store, secrets: SECRETS, now: () => T0, ...options });
    const server = await listen((req, res) => collector.handle(req, res));
    return { port: portOf(server), close: () => server.close() };
  }
  const statuses = async (port: number, count: number, { client = '127.0.0.1', ...options }: { headers?: Record<string, string>; from?: string; client?: string } = {}) => {
    const list: (number | undefined)[] = [];
    for (let i = 0; i < count; i += 1) list.push((await send(port, { body: batchFrom(client), ...options })).status);
    return list;
  };

  it('is only what passes every check: junk from an address leaves its real reports their whole rate', async () => {
    const { port, close } = await collectorWith({});
    try {
      const junk: { body: string; headers?: Record<string, string> }[] = [
        { body: 'not json' },
        { body: '{"reports":[]}' },
        { body: batch(report({ uid: 'u1' })) },
        { body: batch(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
        { body: 'x'.repeat(17 * 1024) },
      ];
      const refused: (number | undefined)[] = [];
      for (let i = 0; i < 100; i += 1) refused.push((await send(port, junk[i % junk.length]!)).status);
      assert.deepEqual(new Set(refused), new Set([400, 415, 413]));
      // The whole burst is still there for real reports.
      assert.deepEqual(await statuses(port, 41), [...Array(40).fill(204), 429]);
    } finally {
      close();
    }
  });

  it('has a cap for all clients together besides each client’s', async () => {
    const { port, close } = await collectorWith({ globalRate: { perSecond: 1, burst: 3 }, clientOf: (req) => String(req.headers['x-client']) });
    try {
      const each: (number | undefined)[] = [];
      for (const client of ['a', 'b', 'c', 'd']) each.push(...(await statuses(port, 1, { headers: { 'X-Client': client } })));
      assert.deepEqual(each, [204, 204, 204, 429]);
    } finally {
      close();
    }
  });

  it('is by the client a trusted proxy names, and by the socket’s address for anyone else', async () => {
    const rate = { perSecond: 1, burst: 2 };
    const behindProxy = await collectorWith({ trusted: parseTrustedProxies('127.0.0.1'), rate });
    try {
      const a = { from: '127.0.0.1', client: '203.0.113.1', headers: { 'X-Real-IP': '203.0.113.1' } };
      assert.deepEqual(await statuses(behindProxy.port, 3, a), [204, 204, 429]);
      // Another member behind the same proxy has a bucket of their own.
      assert.deepEqual(await statuses(behindProxy.port, 2, { from: '127.0.0.1', client: '203.0.113.2', headers: { 'X-Forwarded-For': '198.51.100.7, 203.0.113.2' } }), [204, 204]);
      // Not the proxy: a made-up header changes nothing, rotating it gets nothing past.
      const direct: (number | undefined)[] = [];
      for (let i = 0; i < 3; i += 1) direct.push(...(await statuses(behindProxy.port, 1, { from: '127.0.0.2', client: '127.0.0.2', headers: { 'X-Real-IP': `198.51.100.${i}`, 'X-Forwarded-For': `198.51.100.${i}` } })));
      assert.deepEqual(direct, [204, 204, 429]);
    } finally {
      behindProxy.close();
    }
  });
});

describe('another site', () => {
  let server: Server;
  let port: number;
  before(async () => {
    const store = { figures: createFigures(), append: async () => {} };
    const collector = createCollector({ store, secrets: SECRETS, now: () => T0 });
    server = await listen((req, res) => collector.handle(req, res));
    port = portOf(server);
  });
  after(() => server.close());

  it('is refused by its Origin, and by Sec-Fetch-Site unless it says same-origin', async () => {
    const status = async (headers: Record<string, string>) => (await send(port, { body: batch(), headers })).status;
    assert.equal(await status({ Origin: 'https://evil.example' }), 403);
    assert.equal(await status({ Origin: 'null' }), 403);
    assert.equal(await status({ Origin: 'chrome-extension://abc' }), 403);
    assert.equal(await status({ 'Sec-Fetch-Site': 'same-site' }), 403);
    assert.equal(await status({ 'Sec-Fetch-Site': 'none' }), 403);
    assert.equal(await status({ 'Sec-Fetch-Site': 'cross-site', Origin: `http://127.0.0.1:${port}` }), 403);
    // The site's own pages: their Origin is the host the request was sent to.
    assert.equal(await status({ Origin: `http://127.0.0.1:${port}`, 'Sec-Fetch-Site': 'same-origin' }), 204);
    assert.equal(await status({ Origin: 'https://127.0.0.1' }), 204);
    assert.equal(await status({}), 204);
  });
});

describe('the OTLP export', () => {
  const otlp = (env: NodeJS.ProcessEnv) => readConfig(OTLP_VARIABLES, env);

  it('reads the standard endpoint and header variables', () => {
    assert.equal(otlpEndpoint(otlp({})), null);
    assert.equal(otlpEndpoint(otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318/' })), 'http://otel:4318/v1/metrics');
    assert.equal(otlpEndpoint(otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://m:9/x' })), 'http://m:9/x');
    assert.deepEqual(otlpHeaders(otlp({ OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%3Db, x-team = web ,broken' })), { 'api-key': 'a=b', 'x-team': 'web' });
  });

  it('refuses at start what is no URL or no number of milliseconds, naming the variable', () => {
    assert.throws(() => otlp({ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel:4318' }), /OTEL_EXPORTER_OTLP_ENDPOINT="otel:4318"/);
    assert.throws(() => otlp({ OTEL_METRIC_EXPORT_INTERVAL: 'soon' }), /OTEL_METRIC_EXPORT_INTERVAL="soon"/);
  });

  it('builds cumulative sums and an LCP gauge in the OTLP JSON shape', () => {
    const figures = createFigures();
    figures.record([report({ vitals: { lcp: 2000 } }) as Counted], T0);
    const payload: OtlpBody = metricsPayload({
      counters: { startedAt: T0, reports: [{ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'loaded', count: 3 }], refused: [{ status: 400, count: 2 }] },
      figures,
      now: T0 + 5000,
      serviceName: 'netnet-test',
    });
    const [resourceMetrics] = payload.resourceMetrics;
    assert.deepEqual(resourceMetrics?.resource.attributes, [{ key: 'service.name', value: { stringValue: 'netnet-test' } }]);
    const [reports, refused, lcp] = resourceMetrics?.scopeMetrics[0]?.metrics ?? [];
    assert.equal(reports?.name, 'netnet.health.reports');
    assert.equal(reports?.sum?.aggregationTemporality, 2);
    assert.equal(reports?.sum?.isMonotonic, true);
    assert.deepEqual(reports?.sum?.dataPoints[0], {
      attributes: [
        { key: 'netnet.remote', value: { stringValue: 'remote-title' } },
        { key: 'netnet.release', value: { stringValue: '1.4.0' } },
        { key: 'netnet.channel', value: { stringValue: 'canary' } },
        { key: 'netnet.outcome', value: { stringValue: 'loaded' } },
      ],
      startTimeUnixNano: `${T0}000000`,
      timeUnixNano: `${T0 + 5000}000000`,
      asInt: '3',
    });
    assert.deepEqual(refused?.sum?.dataPoints[0]?.attributes, [{ key: 'http.response.status_code', value: { stringValue: '400' } }]);
    assert.equal(lcp?.gauge?.dataPoints.length, 1);
    assert.ok(Math.abs((lcp?.gauge?.dataPoints[0]?.asDouble ?? NaN) - 2000) < 50);
  });

  it('posts it to <endpoint>/v1/metrics every interval, with the configured headers', async () => {
    const received: { path: string | undefined; type: string | undefined; key: string | string[] | undefined; body: OtlpBody }[] = [];
    let done = () => {};
    const got = new Promise<void>((resolve) => (done = resolve));
    const otel = await listen((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk));
      req.on('end', () => {
        received.push({ path: req.url, type: req.headers['content-type'], key: req.headers['api-key'], body: JSON.parse(text) });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
        done();
      });
    });
    const store = createHealthStore({ db: database.pool, environment: 'otlp' });
    const collector = createCollector({
      store,
      secrets: SECRETS,
      now: () => T0,
      otlp: otlp({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${portOf(otel)}`,
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=secret',
        OTEL_METRIC_EXPORT_INTERVAL: '20',
      }),
    });
    const server = await listen((req, res) => collector.handle(req, res));
    assert.equal((await send(portOf(server), { body: batch(report(), report()) })).status, 204);
    await got;
    collector.close();
    server.close();
    otel.close();
    await store.close();
    const [first] = received;
    assert.equal(first?.path, '/v1/metrics');
    assert.equal(first?.type, 'application/json');
    assert.equal(first?.key, 'secret');
    const metrics = first?.body.resourceMetrics[0]?.scopeMetrics[0]?.metrics ?? [];
    assert.deepEqual(metrics.map((metric) => metric.name), ['netnet.health.reports', 'netnet.health.refused_batches', 'netnet.health.lcp.p75']);
  });
});

describe('tickets', () => {
  // What an outsider can send without loading pages, and what one page load can weigh.
  let collector: Collector;
  let server: Server;
  let port: number;
  let at = T0;
  const canary = { remote: 'remote-title', version: '1.4.0', channel: 'canary' };
  const stable = { remote: 'remote-title', version: '1.3.0', channel: 'stable' };
  const failed = (over: Record<string, unknown> = {}) => report({ outcome: 'fell-back', ...over });
  const sessions = (release = '1.4.0', channel = 'canary') => collector.figures().series('remote-title', release, channel)?.totals.sessions ?? 0;
  const post = async (body: unknown, path?: string) => (await send(port, { body: typeof body === 'string' ? body : JSON.stringify(body), ...(path && { path }) })).status;

  beforeEach(async () => {
    server?.close();
    at = T0;
    const figures = createFigures();
    const store = { figures, append: async (reports: Counted[], when: number) => figures.record(reports, when) };
    // A generous rate: these tests are about what counts, not how often one may send.
    collector = createCollector({ store, secrets: SECRETS, now: () => at, rate: { perSecond: 1000, burst: 1000 } });
    server = await listen((req, res) => collector.handle(req, res));
    port = portOf(server);
  });
  after(() => server.close());

  it('counts nothing without one: 40 batches of 50 invented sessions from one client all get 403', async () => {
    const invented = Array.from({ length: 50 }, () => failed());
    const statuses = new Set<number | undefined>();
    for (let i = 0; i < 40; i += 1) statuses.add(await post({ reports: invented }));
    assert.deepEqual([...statuses], [403]);
    assert.deepEqual(collector.figures().list(), []);
  });

  it('counts nothing with a forged, expired, future or other release’s ticket', async () => {
    const forged = ticketFor([canary], { secrets: [Buffer.alloc(32, 8)] });
    const tampered = ticketFor([stable]).replace(/^[^.]+/, Buffer.from(JSON.stringify({ v: 1, id: 'x'.repeat(22), at: T0, d: null, r: [['remote-title', '1.4.0', 'canary']] })).toString('base64url'));
    const cases: [string, string, number][] = [
      ['a ticket signed with another key', forged, 403],
      ['a ticket whose releases were changed', tampered, 403],
      ['an expired ticket', ticketFor([canary], { now: T0 - 31 * 60_000 }), 403],
      ['a ticket from the future', ticketFor([canary], { now: T0 + 5 * 60_000 }), 403],
      ['a ticket for the stable only', ticketFor([stable]), 403],
      ['a ticket for another remote', ticketFor([{ ...canary, remote: 'remote-search' }]), 403],
      ['not a ticket', 'hello.world', 403],
    ];
    for (const [name, ticket, status] of cases) assert.equal(await post({ ticket, reports: [failed()] }), status, name);
    assert.deepEqual(collector.figures().list(), []);
  });

  it('counts one page load once per release, however often its batch is replayed', async () => {
    const ticket = ticketFor([canary, stable]);
    const body = { ticket, reports: [failed(), report({ release: '1.3.0', channel: 'stable' })] };
    for (let i = 0; i < 100; i += 1) assert.equal(await post(body), 204);
    assert.equal(sessions(), 1);
    assert.equal(sessions('1.3.0', 'stable'), 1);
    // One failure after a loaded session is the page's own news; a second one is not.
    const loaded = ticketFor([canary]);
    for (const outcome of ['loaded', 'uncaught-error', 'boundary-error']) await post({ ticket: loaded, reports: [report({ outcome })] });
    assert.equal(sessions(), 3);
    assert.equal(collector.figures().series('remote-title', '1.4.0', 'canary')?.totals.failures, 2);
  });

  it('counts at most 5 sessions per device, release and hour', async () => {
    const device = deviceTag(SECRETS, 'device-of-a-script');
    for (let i = 0; i < 20; i += 1) assert.equal(await post({ ticket: ticketFor([canary], { device }), reports: [failed()] }), 204);
    assert.equal(sessions(), 5);
    // Another device, or the next hour, counts again.
    await post({ ticket: ticketFor([canary], { device: deviceTag(SECRETS, 'another-device') }), reports: [failed()] });
    assert.equal(sessions(), 6);
    at = T0 + 60 * 60_000;
    await post({ ticket: ticketFor([canary], { device, now: at }), reports: [failed()] });
    // The hour before has left the figures' window: what is there is the new hour's one session.
    assert.equal(sessions(), 1);
  });

  it('drops a QA pin’s reports the ticket does not name, and counts the rest', async () => {
    const ticket = ticketFor([stable]);
    assert.equal(await post({ ticket, reports: [report({ release: '2.0.0', channel: 'override' }), report({ release: '1.3.0', channel: 'stable' })] }), 204);
    assert.equal(sessions('2.0.0', 'override'), 0);
    assert.equal(sessions('1.3.0', 'stable'), 1);
  });

  it('refuses a batch routed by another ticket’s key', async () => {
    const ticket = ticketFor([canary]);
    assert.equal(await post({ ticket, reports: [failed()] }, `/health/reports?k=${routingKey(ticketFor([canary]))}`), 400);
    assert.equal(sessions(), 0);
    assert.equal(await post({ ticket, reports: [failed()] }, `/health/reports?k=${encodeURIComponent(routingKey(ticket))}`), 204);
    assert.equal(sessions(), 1);
  });

  it('counts a fallback the server saw itself, within the device’s cap', async () => {
    const device = deviceTag(SECRETS, 'a-member');
    const req = { headers: {}, socket: { remoteAddress: '198.51.100.7' } } as unknown as IncomingMessage;
    const counted: boolean[] = [];
    for (let i = 0; i < 6; i += 1) counted.push(await collector.recordServerFallback({ remote: 'remote-title', release: '1.4.0', channel: 'canary' }, device, req));
    assert.deepEqual(counted, [true, true, true, true, true, false]);
    assert.equal(collector.figures().series('remote-title', '1.4.0', 'canary')?.totals.failures, 5);
  });

  it('counts tickets without a device as one device: no device is no way around its cap', async () => {
    for (let i = 0; i < 20; i += 1) assert.equal(await post({ ticket: ticketFor([canary], { device: null }), reports: [failed()] }), 204);
    assert.equal(sessions(), 5);
  });

  it('refuses a batch from another network than the one its ticket was issued to', async () => {
    const elsewhere = ticketFor([canary], { network: networkOfAddress('198.51.100.7') });
    const answer = await send(port, { body: JSON.stringify({ ticket: elsewhere, reports: [failed()] }) });
    assert.equal(answer.status, 403);
    assert.match(answer.body.error, /another network/);
    assert.equal(sessions(), 0);
  });

  it('refuses a page load that says its canary loaded and its stable failed, in one batch or two', async () => {
    const both = ticketFor([canary, stable]);
    const stableFailed = report({ release: '1.3.0', channel: 'stable', outcome: 'failed' });
    assert.equal(await post({ ticket: both, reports: [report(), stableFailed] }), 403);
    const split = ticketFor([canary, stable]);
    assert.equal(await post({ ticket: split, reports: [report()] }), 204);
    assert.equal(await post({ ticket: split, reports: [stableFailed] }), 403);
    assert.equal(sessions(), 1);
    assert.equal(sessions('1.3.0', 'stable'), 0);
    // A canary that fell back, then a stable that failed too: the page's real story, counted.
    const fellBack = ticketFor([canary, stable]);
    assert.equal(await post({ ticket: fellBack, reports: [failed(), stableFailed] }), 204);
    // A canary that loaded and later failed, then its stable serving: counted as well.
    const late = ticketFor([canary, stable]);
    assert.equal(await post({ ticket: late, reports: [report()] }), 204);
    assert.equal(await post({ ticket: late, reports: [report({ outcome: 'uncaught-error' }), report({ release: '1.3.0', channel: 'stable' })] }), 204);
    assert.equal(sessions('1.3.0', 'stable'), 2);
  });
});
