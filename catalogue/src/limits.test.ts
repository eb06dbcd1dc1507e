// Hostile input that once cost CPU or memory, or steered what the service hands out: each case
// here was found by an attack review and must stay closed.
import { raw, serve, type Running } from './test/serve';

let service: Running;
beforeAll(async () => {
  service = await serve({ size: 3000, seed: 42 });
});
afterAll(() => service.close());

const get = (path: string, headers: Record<string, string> = {}) => raw(`${service.url}${path}`, { headers });
const json = (res: { body: Buffer }) => JSON.parse(res.body.toString());

async function expectInvalidGenres(query: string) {
  const res = await get(`/3/discover/movie?with_genres=${query}`);
  expect(res.status).toBe(422);
  expect(json(res)).toEqual({ success: false, status_code: 47, status_message: 'The input is not valid.' });
}

describe('with_genres is bounded', () => {
  it('refuses more than ten genres', async () => {
    await expectInvalidGenres('28|12|16|35|80|99|18|10751|14|36|27');
    await expectInvalidGenres('28,12,16,35,80,99,18,10751,14,36,27');
  });

  it('refuses 1,500 unknown ids at once (the CPU attack)', async () => {
    await expectInvalidGenres(Array.from({ length: 1500 }, (_, i) => 200000 + i).join('|'));
  });

  it('refuses a genre TMDB does not have, or one of the other media type', async () => {
    await expectInvalidGenres('99999');
    await expectInvalidGenres('35|424242');
    await expectInvalidGenres('10759'); // Action & Adventure is a series genre
  });

  it('accepts ten genres, and the same genre repeated counts once', async () => {
    const ten = await get('/3/discover/movie?with_genres=28|12|16|35|80|99|18|10751|14|36');
    expect(ten.status).toBe(200);
    const repeated = await get('/3/discover/movie?with_genres=35|35|35|35|35|35|35|35|35|35|35|35|18');
    expect(repeated.status).toBe(200);
    const plain = await get('/3/discover/movie?with_genres=18|35');
    expect(json(repeated)).toEqual(json(plain));
  });

  it('"any of" is exactly the union and "all of" the intersection', async () => {
    const total = async (genres: string) => json(await get(`/3/discover/tv?with_genres=${genres}`)).total_results as number;
    const [comedy, drama, both, either] = await Promise.all([total('35'), total('18'), total('35,18'), total('35|18')]);
    expect(comedy).toBeGreaterThan(0);
    expect(drama).toBeGreaterThan(0);
    expect(either).toBe(comedy + drama - both);
    const three = await total('35|18|9648');
    expect(three).toBeGreaterThan(either);
  });

  it('reads the ids in any order as the same filter', async () => {
    const a = json(await get('/3/discover/movie?with_genres=35,18'));
    const b = json(await get('/3/discover/movie?with_genres=18,35'));
    expect(b).toEqual(a);
    expect(a.total_results).toBeGreaterThan(0);
    for (const t of a.results) expect(t.genre_ids).toEqual(expect.arrayContaining([35, 18]));
  });
});

describe('other parameters are bounded', () => {
  it.each([`language=${'x'.repeat(200)}`, 'language=<script>', 'include_adult=maybe'])('%s → 422 (5)', async (param) => {
    const res = await get(`/3/search/multi?query=comedy&${param}`);
    expect(res.status).toBe(422);
    expect(json(res)).toEqual({ success: false, status_code: 5, status_message: 'Invalid parameters: Your request parameters are incorrect.' });
  });

  it('accepts the parameters the app and TMDB clients send', async () => {
    expect((await get('/3/movie/604?language=en-US&api_key=ignored')).status).toBe(200);
    expect((await get('/3/search/movie?query=a&include_adult=false&language=pt-BR')).status).toBe(200);
    expect((await get('/3/movie/popular?region=US')).status).toBe(200);
  });
});

describe('the answer cache', () => {
  it('keys on the route and its known parameters only, so junk parameters add no entries', async () => {
    const fresh = await serve({ size: 300 });
    try {
      const first = await raw(`${fresh.url}/3/movie/604`);
      for (let i = 0; i < 40; i++) {
        const res = await raw(`${fresh.url}/3/movie/604?cb=${i}&junk=${'x'.repeat(4000)}&language=en-US`);
        expect(res.status).toBe(200);
        expect(res.headers.etag).toBe(first.headers.etag);
      }
      expect(fresh.server.cacheStats().entries).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('counts key bytes in its budget', async () => {
    const fresh = await serve({ size: 300 });
    try {
      await raw(`${fresh.url}/3/search/multi?query=${'q'.repeat(500)}`);
      const { entries, bytes } = fresh.server.cacheStats();
      expect(entries).toBe(1);
      const body = (await raw(`${fresh.url}/3/search/multi?query=${'q'.repeat(500)}`)).body.length;
      expect(bytes).toBeGreaterThanOrEqual(body + 500);
    } finally {
      await fresh.close();
    }
  });
});

describe('the clip URL never comes from an arbitrary Host header', () => {
  const clipUrl = async (running: Running, host?: string) => {
    const res = await raw(`${running.url}/3/movie/604/videos`, { headers: host ? { Host: host } : {} });
    expect(res.status).toBe(200);
    return { url: json(res).results[0].url as string, vary: String(res.headers.vary) };
  };

  it('ignores a hostile Host and names the address the request came in on', async () => {
    const port = new URL(service.url).port;
    const { url } = await clipUrl(service, 'evil.example');
    expect(url).toBe(`http://127.0.0.1:${port}/media/demo-clip.mp4`);
    const again = await clipUrl(service, 'evil.example:80');
    expect(again.url).toBe(`http://127.0.0.1:${port}/media/demo-clip.mp4`);
  });

  it('uses a localhost Host (the local site), and says the answer varies with it', async () => {
    const { url, vary } = await clipUrl(service, 'localhost:8123');
    expect(url).toBe('http://localhost:8123/media/demo-clip.mp4');
    expect(vary).toMatch(/\bHost\b/);
  });

  it('uses a Host from the configured allow-list', async () => {
    const listed = await serve({ size: 300, publicHosts: ['cdn.example.test'] });
    try {
      expect((await clipUrl(listed, 'cdn.example.test')).url).toBe('http://cdn.example.test/media/demo-clip.mp4');
      expect((await clipUrl(listed, 'other.example.test')).url).toBe(`${listed.url}/media/demo-clip.mp4`);
    } finally {
      await listed.close();
    }
  });

  it('uses the configured public URL whatever the Host', async () => {
    const configured = await serve({ size: 300, publicUrl: 'https://catalogue.example.test/' });
    try {
      expect((await clipUrl(configured, 'evil.example')).url).toBe('https://catalogue.example.test/media/demo-clip.mp4');
      expect((await clipUrl(configured, 'localhost:1')).url).toBe('https://catalogue.example.test/media/demo-clip.mp4');
    } finally {
      await configured.close();
    }
  });
});
