/**
 * @jest-environment node
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createPageServer, type RequestFacts } from './index';
import { renderArea, type RenderResult } from './renderArea';

// The page server over real HTTP, its render replaced by one whose timing the test controls: what
// it renders, how many at once, and what it answers without rendering (docs/limits.md).

jest.mock('./renderArea', () => ({ renderArea: jest.fn() }));
// The releases' render processes are not started here: most maps name no remote, so pages render without an area.

const render = jest.mocked(renderArea);
const TEMPLATE = '<!doctype html><html><head><script defer src="/main.0123456789.js"></script></head><body><div id="root"></div></body></html>';
const RENDERED = '<main>rendered on the server</main>';
const CONFIG = { catalogueUrl: 'http://catalogue.test', firebase: { apiKey: 'k', authDomain: 'a', projectId: 'p' }, authEmulatorUrl: null };

let running = 0;
let mostAtOnce = 0;
let started: string[] = [];
function renderTaking(ms: number) {
  render.mockImplementation(async ({ location }) => {
    started.push(location.search);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise((resolve) => setTimeout(resolve, ms));
    running -= 1;
    return { html: RENDERED, catalogue: {}, errors: [], cutShort: false } satisfies RenderResult;
  });
}

const servers: Server[] = [];
async function serve(options: Partial<Parameters<typeof createPageServer>[0]> = {}, facts?: RequestFacts | ((req: IncomingMessage) => RequestFacts)): Promise<number> {
  const pages = createPageServer({ template: TEMPLATE, config: CONFIG, remoteMap: () => ({ remotes: {} }), ...options });
  const server = createServer((req, res) => void pages(req, res, typeof facts === 'function' ? facts(req) : facts));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

interface Raw {
  status: number;
  head: string;
  body: Buffer;
}

/** Sends `text` as is on one connection and reads `count` final responses (skipping 103s), with their raw heads. */
function raw(port: number, text: string, count: number): Promise<{ responses: Raw[]; interim: string[] }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let buffer = Buffer.alloc(0);
    const responses: Raw[] = [];
    const interim: string[] = [];
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        const status = Number(head.split(' ')[1]);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (status < 200) {
          interim.push(head);
          buffer = buffer.subarray(end + 4);
          continue;
        }
        if (buffer.length < end + 4 + length) return;
        responses.push({ status, head, body: buffer.subarray(end + 4, end + 4 + length) });
        buffer = buffer.subarray(end + 4 + length);
        if (responses.length === count) {
          socket.destroy();
          resolve({ responses, interim });
        }
      }
    });
    socket.on('error', reject);
  });
}

const get = (path: string, headers = '', version = '1.1') => `GET ${path} HTTP/${version}\r\nHost: netnet.test\r\nCookie: netnet-device=d1\r\n${headers}\r\n`;
const rendered = (body: Buffer) => body.toString('utf8').includes(RENDERED);
const stateOf = (page: string): unknown => JSON.parse(/<script type="application\/json" id="netnet-state">(.*?)<\/script>/.exec(page)?.[1] ?? 'null');

beforeEach(() => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  running = 0;
  mostAtOnce = 0;
  started = [];
  renderTaking(20);
});
afterAll(() => servers.forEach((server) => server.close()));

describe('the render cap', () => {
  it('renders only the first of the requests one connection pipelines, and answers the rest at once', async () => {
    const port = await serve({ renders: { maxInFlight: 2, maxWaiting: 3, maxWaitMs: 5_000 } });
    const { responses } = await raw(port, get('/browse').repeat(12), 12);
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(render).toHaveBeenCalledTimes(1);
    expect(responses.map((r) => rendered(r.body))).toEqual([true, ...Array(11).fill(false)]);
    for (const response of responses.filter((r) => !rendered(r.body))) {
      // The shell's page with nothing rendered, and the state to boot from: no more requests to a busy server.
      const page = response.body.toString('utf8');
      expect(page).toContain('<div id="root"></div>');
      expect(stateOf(page)).toEqual({ config: CONFIG, map: { remotes: {} }, chosen: {}, catalogue: {}, member: null });
      expect(response.head).toMatch(/\r\ncontent-type: text\/html; charset=utf-8/i);
      expect(response.head).toMatch(/\r\ncache-control: no-store/i);
    }
  });

  it('runs no more renders than the cap, lines up requests past it, and turns away those past the line', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    // Renders hold until every request is in, so none ends early and frees its place (a slow machine
    // opens seven connections over more than one short render).
    let open = () => {};
    const allIn = new Promise<void>((resolve) => (open = resolve));
    render.mockImplementation(async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await allIn;
      running -= 1;
      return { html: RENDERED, catalogue: {}, errors: [], cutShort: false } satisfies RenderResult;
    });
    const port = await serve({ renders: { maxInFlight: 2, maxWaiting: 3, maxWaitMs: 5_000 } });
    const asks = Array.from({ length: 7 }, () => raw(port, get('/'), 1));
    let answered = 0;
    for (const ask of asks) void ask.then(() => (answered += 1));
    // The two past the line are answered at once; the five others are running or waiting.
    while (answered < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    open();
    const answers = await Promise.all(asks);
    expect(mostAtOnce).toBe(2);
    expect(render).toHaveBeenCalledTimes(5);
    expect(answers.filter(({ responses }) => rendered(responses[0]!.body))).toHaveLength(5);
    // Said once, not once per page: a flood must not flood the log too.
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/renders at their cap \(2 running, 3 waiting\): 1 page\(s\) left to the browser/);
  });

  it('takes turns between clients in the line, and gives a newcomer a place of the client holding the most', async () => {
    // a1's render holds the one place until the line is formed, so the order of the line is the
    // order the requests were sent in, however slow the machine (each is given 100 ms to arrive).
    let open = () => {};
    const a1Held = new Promise<void>((resolve) => (open = resolve));
    render.mockImplementation(async ({ location }) => {
      started.push(location.search);
      if (location.search === '?r=a1') await a1Held;
      return { html: RENDERED, catalogue: {}, errors: [], cutShort: false } satisfies RenderResult;
    });
    const port = await serve({ renders: { maxInFlight: 1, maxWaiting: 3, maxWaitMs: 5_000 } }, (req) => ({ https: false, client: String(req.headers['x-client']) }));
    const ask = (client: string, n: number) => raw(port, get(`/?r=${client}${n}`, `X-Client: ${client}\r\n`), 1).then(({ responses }) => responses[0]!);
    const flood: Promise<Raw>[] = [ask('a', 1)];
    while (started.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    for (let n = 2; n <= 4; n += 1) {
      flood.push(ask('a', n));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const asked = ask('b', 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    open();
    const other = await asked;
    expect(rendered(other.body)).toBe(true);
    const answers = await Promise.all(flood);
    // a1 ran, b1 took a4's place in the full line, and its turn came before a2's and a3's.
    expect(answers.map((response) => rendered(response.body))).toEqual([true, true, true, false]);
    expect(started).toEqual(['?r=a1', '?r=b1', '?r=a2', '?r=a3']);
  });

  it('gives the browser the page to render when a request has waited past the line’s deadline', async () => {
    renderTaking(400);
    const port = await serve({ renders: { maxInFlight: 1, maxWaiting: 10, maxWaitMs: 50 } });
    const first = raw(port, get('/'), 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    const second = await raw(port, get('/'), 1);
    const waited = Date.now() - started;
    console.log(`answered without a render after ${waited} ms in the line (its deadline 50 ms; bounds 45 and 300 ms)`);
    expect(rendered(second.responses[0]!.body)).toBe(false);
    expect(waited).toBeGreaterThanOrEqual(45);
    expect(waited).toBeLessThan(300);
    expect(rendered((await first).responses[0]!.body)).toBe(true);
    expect(render).toHaveBeenCalledTimes(1);
  });
});

describe('HEAD', () => {
  it('answers with the page’s headers and no body, and never renders', async () => {
    const port = await serve();
    const { responses } = await raw(port, `HEAD /browse HTTP/1.1\r\nHost: netnet.test\r\nCookie: netnet-member=m1\r\n\r\n`, 1);
    expect(responses[0]!.status).toBe(200);
    expect(responses[0]!.head).toMatch(/\r\ncontent-type: text\/html/i);
    expect(responses[0]!.body.length).toBe(0);
    expect(render).not.toHaveBeenCalled();
  });
});

describe('early hints', () => {
  it('go to an HTTP/1.1 client and never to an HTTP/1.0 one', async () => {
    const port = await serve();
    const modern = await raw(port, get('/'), 1);
    expect(modern.interim[0]).toMatch(/^HTTP\/1\.1 103 Early Hints\r\nLink: <\/main\.0123456789\.js>; rel=preload; as=script/);
    const old = await raw(port, get('/', '', '1.0'), 1);
    expect(old.responses[0]!.status).toBe(200);
    expect(old.interim).toEqual([]);
  });
});

describe('compression', () => {
  it('follows Accept-Encoding’s weights: q=0 is never', async () => {
    const port = await serve();
    const encodingOf = async (header: string) => {
      const [response] = (await raw(port, get('/', `Accept-Encoding: ${header}\r\n`), 1)).responses;
      return { coding: /\r\ncontent-encoding: (\w+)/i.exec(response!.head)?.[1] ?? null, body: response!.body };
    };
    const none = await encodingOf('br;q=0, gzip;q=0, identity');
    expect(none.coding).toBeNull();
    expect(rendered(none.body)).toBe(true);
    const gzip = await encodingOf('br;q=0, gzip');
    expect(gzip.coding).toBe('gzip');
    expect(rendered(gunzipSync(gzip.body))).toBe(true);
    const br = await encodingOf('gzip;q=0.5, br');
    expect(br.coding).toBe('br');
    expect(rendered(brotliDecompressSync(br.body))).toBe(true);
  });

  it('applies to the page left to the browser too', async () => {
    const port = await serve({ renders: { maxInFlight: 1, maxWaiting: 0, maxWaitMs: 10 } });
    const { responses } = await raw(port, get('/', 'Accept-Encoding: br;q=0, gzip\r\n').repeat(2), 2);
    expect(responses[1]!.head).toMatch(/\r\ncontent-encoding: gzip/i);
    const page = gunzipSync(responses[1]!.body).toString('utf8');
    expect(rendered(responses[1]!.body)).toBe(false);
    expect(stateOf(page)).toMatchObject({ map: { remotes: {} }, catalogue: {} });
  });
});

describe('the page left to the browser', () => {
  it('carries no state when the map cannot be read: the browser asks for it', async () => {
    const port = await serve({
      remoteMap: () => {
        throw new Error('the store never answered');
      },
    });
    const { responses } = await raw(port, get('/browse').repeat(2), 2);
    expect(responses.map((r) => r.body.toString('utf8'))).toEqual([TEMPLATE, TEMPLATE]);
  });
});

describe('the device cookie', () => {
  const first = 'GET / HTTP/1.1\r\nHost: netnet.test\r\n\r\n';

  it('is Secure when the server in front says the client spoke HTTPS', async () => {
    const port = await serve({}, { https: true });
    const [response] = (await raw(port, first, 1)).responses;
    expect(response!.head).toMatch(/\r\nset-cookie: netnet-device=[\w-]+; Path=\/; Max-Age=\d+; SameSite=Lax; Secure\r\n/i);
  });

  it('is not Secure over plain HTTP', async () => {
    const port = await serve({}, { https: false });
    const [response] = (await raw(port, first, 1)).responses;
    expect(response!.head).toMatch(/\r\nset-cookie: netnet-device=[\w-]+; Path=\/; Max-Age=\d+; SameSite=Lax\r\n/i);
  });
});

describe('the release-health ticket', () => {
  const map = {
    remotes: {
      'remote-title': {
        stable: { version: '1.3.0', entry: 'http://cdn.test/remote-title/1.3.0/mf-manifest.json' },
        canary: { version: '1.4.0', entry: 'http://cdn.test/remote-title/1.4.0/mf-manifest.json', percent: 100 },
        pinnable: [],
      },
    },
  };
  it('goes with the page, rendered or left to the browser, signed for the releases this device was given', async () => {
    const ticket = jest.fn((releases: unknown[], identity: unknown) => `signed ${JSON.stringify({ releases, identity })}`);
    const port = await serve({ remoteMap: () => map, ticket, renders: { maxInFlight: 1, maxWaiting: 0, maxWaitMs: 10 } });
    const { responses } = await raw(port, get('/').repeat(2), 2);
    const given = [
      { remote: 'remote-title', version: '1.3.0', channel: 'stable' },
      { remote: 'remote-title', version: '1.4.0', channel: 'canary' },
    ];
    for (const response of responses) {
      const state = stateOf(response.body.toString('utf8')) as { ticket?: string };
      expect(state.ticket).toBe(`signed ${JSON.stringify({ releases: given, identity: { member: null, device: 'd1' } })}`);
    }
    expect(rendered(responses[0]!.body)).toBe(true);
    expect(rendered(responses[1]!.body)).toBe(false);
  });
});

describe('a dev server pin', () => {
  const release = { version: '1.0.0', entry: 'http://cdn.test/remote-title/1.0.0/mf-manifest.json' };
  const map = { remotes: { 'remote-title': { stable: release, pinnable: [], dev: { origin: 'http://localhost:3013', entry: 'http://localhost:3013/mf-manifest.json' } } } };
  const member = 'GET /title/604 HTTP/1.1\r\nHost: netnet.test\r\nCookie: netnet-device=d1; netnet-member=m1\r\n\r\n';

  it('leaves that area to the browser, renders the rest, and sets the cookie it is given', async () => {
    renderTaking(0);
    const areas = { render: jest.fn(), warm: jest.fn(), pageFailed: jest.fn(), keepOnly: jest.fn(), running: jest.fn(), close: jest.fn() };
    const port = await serve({ remoteMap: () => map, areas, cookiesFor: () => ['netnet-dev-pin=x; Path=/; HttpOnly'] });
    const [response] = (await raw(port, member, 1)).responses;
    expect(areas.render).not.toHaveBeenCalled();
    expect(render).toHaveBeenCalledWith(expect.objectContaining({ page: { key: 'remote_title/MovieDetail', Page: null } }));
    expect(response!.head).toMatch(/\r\nset-cookie: netnet-dev-pin=x; Path=\/; HttpOnly\r\n/i);
    const page = response!.body.toString('utf8');
    expect(rendered(response!.body)).toBe(true);
    expect(stateOf(page)).toMatchObject({ chosen: {}, map });
  });
});

describe('a guard’s answer', () => {
  const member = 'Cookie: netnet-device=d1; netnet-member=m1\r\n';
  const ask = (path: string, cookie = 'Cookie: netnet-device=d1\r\n') => `GET ${path} HTTP/1.1\r\nHost: netnet.test\r\n${cookie}\r\n`;
  async function answer(path: string, cookie?: string) {
    const port = await serve();
    const [response] = (await raw(port, ask(path, cookie), 1)).responses;
    return stateOf(response!.body.toString('utf8')) as { redirect?: unknown };
  }

  it('renders the landing page for a visitor’s members’ link, keeping the link for after signing in', async () => {
    const state = await answer('/tv/1103?play=1');
    expect(state.redirect).toEqual({ to: '/', from: '/tv/1103?play=1', state: { from: '/tv/1103?play=1' } });
    expect(render).toHaveBeenCalledWith(expect.objectContaining({ location: { pathname: '/', search: '', state: { from: '/tv/1103?play=1' } } }));
  });

  it('tells the browser a member’s path is no page at all, and not a visitors’ page', async () => {
    expect((await answer('/nosuchpage', member)).redirect).toEqual({ to: '/browse', state: { missing: true } });
    expect(render).toHaveBeenLastCalledWith(expect.objectContaining({ location: { pathname: '/browse', search: '', state: { missing: true } } }));
    expect((await answer('/login', member)).redirect).toEqual({ to: '/browse' });
    expect((await answer('/browse', member)).redirect).toBeUndefined();
    // A visitor's unknown path goes to / with nothing kept and nothing said.
    expect((await answer('/nosuchpage')).redirect).toEqual({ to: '/' });
  });
});
