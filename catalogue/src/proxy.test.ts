import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { raw, serve, type Running } from './test/serve';

const KEY = 'sekret-key-0123456789abcdef';

/** A fake TMDB on loopback: records what it was asked and answers per path. */
interface Upstream {
  url: string;
  seen: URL[];
  headers: IncomingMessage['headers'][];
  close: () => Promise<void>;
}

async function fakeTmdb(handler: (url: URL, res: ServerResponse) => void): Promise<Upstream> {
  const seen: URL[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    seen.push(url);
    headers.push(req.headers);
    handler(url, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    headers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

function tmdbLike(url: URL, res: ServerResponse) {
  const path = url.pathname;
  if (path === '/3/movie/popular') return json(res, 200, { page: Number(url.searchParams.get('page') ?? 1), results: [{ id: 1, title: 'Real' }], total_pages: 1, total_results: 1 });
  if (path === '/3/discover/movie') return json(res, 200, { page: 1, results: [], total_pages: 1, total_results: 0 });
  if (path === '/3/movie/1') return setTimeout(() => json(res, 200, { id: 1, title: 'Slow but fine' }), 150);
  if (path === '/3/movie/2') return json(res, 500, { status_code: 11, status_message: 'Internal error' });
  if (path === '/3/movie/3') {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    return res.end('<html>maintenance</html>');
  }
  if (path === '/3/movie/4') return json(res, 404, { success: false, status_code: 34, status_message: 'The resource you requested could not be found.' });
  if (path === '/3/movie/5') return json(res, 429, { success: false, status_code: 25, status_message: 'Your request count (41) is over the allowed limit of 40.' }, { 'Retry-After': '2' });
  // Echoes the key everywhere it can, to prove the proxy scrubs it.
  if (path === '/3/movie/6') return json(res, 401, { success: false, status_code: 7, status_message: `Invalid API key: ${url.searchParams.get('api_key')}` }, { 'X-Key': KEY });
  if (path === '/3/movie/7') return; // never answers
  return json(res, 404, { success: false, status_code: 34, status_message: 'The resource you requested could not be found.' });
}

describe('proxy mode', () => {
  let upstream: Upstream;
  let service: Running;
  beforeAll(async () => {
    upstream = await fakeTmdb(tmdbLike);
    service = await serve({ tmdbApiKey: KEY, upstream: upstream.url, imageUpstream: 'http://images.test', upstreamTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await service.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.seen.length = 0;
    upstream.headers.length = 0;
  });

  const get = (path: string, headers: Record<string, string> = {}) => raw(`${service.url}${path}`, { headers });

  it('adds the key server-side and drops the one a client sent', async () => {
    const res = await get('/3/movie/popular?page=1&api_key=client-supplied&language=en-US');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).results[0].title).toBe('Real');
    expect(upstream.seen).toHaveLength(1);
    const asked = upstream.seen[0]!;
    expect(asked.searchParams.getAll('api_key')).toEqual([KEY]);
    expect(asked.searchParams.get('language')).toBe('en-US');
    expect(res.body.toString()).not.toContain(KEY);
  });

  it('serves a repeat from its cache', async () => {
    await get('/3/movie/popular?page=2');
    await get('/3/movie/popular?page=2&api_key=other');
    const third = await get('/3/movie/popular?page=2', { 'Accept-Encoding': 'gzip' });
    expect(third.status).toBe(200);
    expect(third.headers['cache-control']).toBe('public, max-age=300');
    expect(upstream.seen).toHaveLength(1);
  });

  it('coalesces concurrent identical requests into one upstream fetch', async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, () => get('/3/movie/1?language=en-US')));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(upstream.seen).toHaveLength(1);
  });

  it.each([
    ['an upstream 500', '/3/movie/2', 502, 43],
    ['a non-JSON answer', '/3/movie/3', 502, 43],
    ['a timeout', '/3/movie/7', 504, 24],
  ])('maps %s to a TMDB-shaped error', async (_what, path, status, code) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(JSON.parse(res.body.toString())).toEqual({ success: false, status_code: code, status_message: expect.any(String) });
  });

  it('passes TMDB 4xx answers through, and 429 with its Retry-After', async () => {
    const missing = await get('/3/movie/4');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString()).status_code).toBe(34);
    const limited = await get('/3/movie/5');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('2');
  });

  it('never leaks the key, even when upstream echoes it', async () => {
    const res = await get('/3/movie/6', { 'Accept-Encoding': 'identity' });
    expect(res.status).toBe(401);
    expect(res.body.toString()).not.toContain(KEY);
    expect(res.body.toString()).toContain('[redacted]');
    expect(JSON.stringify(res.headers)).not.toContain(KEY);
  });

  it('rejects bad input locally, without asking upstream', async () => {
    expect((await get('/3/movie/popular?page=0')).status).toBe(422);
    expect((await get('/3/person/popular')).status).toBe(404);
    expect((await get('/3/movie/abc')).status).toBe(404);
    expect((await get('/3/search/multi')).status).toBe(422);
    expect(upstream.seen).toHaveLength(0);
  });

  it('forwards only the parameters a route takes, so junk never bypasses the cache', async () => {
    for (const junk of ['cb=1', 'cb=2', 'x=y&cb=3', 'sort_by=vote_count.asc', 'page=9']) {
      expect((await get(`/3/movie/popular?page=3&${junk}`)).status).toBe(200);
    }
    expect((await get('/3/movie/popular/?cb=4&page=3')).status).toBe(200);
    expect(upstream.seen).toHaveLength(1);
    expect([...upstream.seen[0]!.searchParams.keys()].sort()).toEqual(['api_key', 'page']);
    expect(upstream.seen[0]!.searchParams.get('page')).toBe('3');

    expect((await get('/3/movie/popular?language=en-US&page=3&cb=5')).status).toBe(200);
    expect(upstream.seen).toHaveLength(2);
    expect([...upstream.seen[1]!.searchParams.keys()].sort()).toEqual(['api_key', 'language', 'page']);
  });

  it('forwards a genre filter in one spelling, so its variants share one upstream call', async () => {
    for (const genres of ['35,18', '18,35', '18,35,35', ' 35 , 18 ']) {
      expect((await get(`/3/discover/movie?with_genres=${encodeURIComponent(genres)}&page=1`)).status).toBe(200);
    }
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]!.pathname).toBe('/3/discover/movie');
    expect(upstream.seen[0]!.searchParams.get('with_genres')).toBe('18,35');
  });

  it('refuses unknown genres and oversized parameters without asking upstream', async () => {
    expect((await get(`/3/discover/movie?with_genres=${Array.from({ length: 1500 }, (_, i) => 200000 + i).join('|')}`)).status).toBe(422);
    expect((await get('/3/discover/movie?with_genres=424242')).status).toBe(422);
    expect((await get(`/3/movie/popular?language=${'x'.repeat(300)}`)).status).toBe(422);
    expect(upstream.seen).toHaveLength(0);
  });

  it('sends images to the TMDB image host', async () => {
    const res = await get('/t/p/w342/abc123.jpg');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('http://images.test/t/p/w342/abc123.jpg');
    expect((await get('/t/p/w342/..%2Fsecret.jpg')).status).toBe(404);
    expect((await get('/t/p/w9999/abc123.jpg')).status).toBe(404);
  });

  it('still serves the demo clip and reports proxy mode', async () => {
    expect((await get('/media/demo-clip.jpg')).status).toBe(200);
    expect(JSON.parse((await get('/health')).body.toString())).toEqual({ status: 'ok', mode: 'proxy', titles: null });
  });

  it('sends a v4 read-access token as a bearer header instead', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.token.signature';
    const bearer = await serve({ tmdbApiKey: token, upstream: upstream.url });
    try {
      const res = await raw(`${bearer.url}/3/movie/popular?api_key=client`);
      expect(res.status).toBe(200);
      expect(upstream.headers[0]!.authorization).toBe(`Bearer ${token}`);
      expect(upstream.seen[0]!.searchParams.has('api_key')).toBe(false);
    } finally {
      await bearer.close();
    }
  });
});

describe('proxy mode with upstream down', () => {
  it('answers 502 when upstream cannot be reached', async () => {
    const gone = await fakeTmdb(tmdbLike);
    const url = gone.url;
    await gone.close();
    const service = await serve({ tmdbApiKey: KEY, upstream: url });
    try {
      const res = await raw(`${service.url}/3/movie/popular`);
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body.toString()).status_code).toBe(43);
      expect(res.body.toString()).not.toContain(KEY);
    } finally {
      await service.close();
    }
  });
});

describe('proxy mode rate limit', () => {
  it('answers 429 with Retry-After once a client has spent its upstream fetches; cached answers stay free', async () => {
    const upstream = await fakeTmdb(tmdbLike);
    const service = await serve({ tmdbApiKey: KEY, upstream: upstream.url, clientRateLimit: { burst: 3, perSecond: 0.5 } });
    try {
      for (const page of [11, 12, 13]) expect((await raw(`${service.url}/3/movie/popular?page=${page}`)).status).toBe(200);
      const limited = await raw(`${service.url}/3/movie/popular?page=14`);
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('2');
      expect(limited.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(limited.body.toString())).toEqual({
        success: false,
        status_code: 25,
        status_message: 'Your request count is over the allowed limit. Try again later.',
      });
      // Junk parameters are no way around it.
      expect((await raw(`${service.url}/3/movie/popular?page=15&cb=1`)).status).toBe(429);
      expect((await raw(`${service.url}/3/movie/popular?page=11&cb=2`)).status).toBe(200);
      expect(upstream.seen).toHaveLength(3);
    } finally {
      await service.close();
      await upstream.close();
    }
  });
});
