import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { getJson, raw, serve, type Running } from './test/serve';

let service: Running;
beforeAll(async () => {
  service = await serve({ size: 3000, seed: 42 });
});
afterAll(() => service.close());

const url = (path: string) => `${service.url}${path}`;

function expectPage(body: any, page = 1) {
  expect(body.page).toBe(page);
  expect(Array.isArray(body.results)).toBe(true);
  expect(body.total_pages).toBe(Math.max(1, Math.ceil(body.total_results / 20)));
  expect(body.results.length).toBeLessThanOrEqual(20);
}

describe('TMDB v3 paths', () => {
  it.each(['movie', 'tv'])('%s/popular pages through titles, most popular first', async (type) => {
    const { status, body, headers } = await getJson(url(`/3/${type}/popular?page=1&api_key=ignored&language=en-US`));
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('public, max-age=300');
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expectPage(body);
    expect(body.results).toHaveLength(20);
    const first = body.results[0];
    expect(first).toEqual(
      expect.objectContaining({ id: expect.any(Number), overview: expect.any(String), genre_ids: expect.any(Array), vote_average: expect.any(Number) }),
    );
    expect(type === 'movie' ? first.title : first.name).toEqual(expect.any(String));
    expect(type === 'movie' ? first.release_date : first.first_air_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const popularity = body.results.map((t: any) => t.popularity);
    expect([...popularity].sort((a, b) => b - a)).toEqual(popularity);

    const page2 = await getJson(url(`/3/${type}/popular?page=2`));
    expectPage(page2.body, 2);
    expect(page2.body.results[0].id).not.toBe(first.id);
  });

  it('answers an empty page past the last one, like TMDB', async () => {
    const { status, body } = await getJson(url('/3/movie/popular?page=500'));
    expect(status).toBe(200);
    expect(body.results).toEqual([]);
    expect(body.page).toBe(500);
  });

  it.each([
    ['movie', 35],
    ['movie', 28],
    ['movie', 27],
    ['movie', 16],
    ['movie', 12],
    ['movie', 80],
    ['movie', 18],
    ['tv', 35],
    ['tv', 9648],
    ['tv', 18],
    ['tv', 10764],
    ['tv', 99],
  ])('discover/%s with_genres=%i fills a row', async (type, genre) => {
    const { status, body } = await getJson(url(`/3/discover/${type}?with_genres=${genre}&page=1`));
    expect(status).toBe(200);
    expectPage(body);
    expect(body.total_results).toBeGreaterThanOrEqual(20);
    expect(body.results.every((t: any) => t.genre_ids.includes(genre))).toBe(true);
  });

  it('discover combines genres with , (all) and | (any)', async () => {
    const all = (await getJson(url('/3/discover/movie?with_genres=35,18'))).body;
    expect(all.results.every((t: any) => t.genre_ids.includes(35) && t.genre_ids.includes(18))).toBe(true);
    const any = (await getJson(url('/3/discover/movie?with_genres=35|18'))).body;
    expect(any.results.every((t: any) => t.genre_ids.includes(35) || t.genre_ids.includes(18))).toBe(true);
    expect(any.total_results).toBeGreaterThan(all.total_results);
    const none = (await getJson(url('/3/discover/tv'))).body;
    expect(none.total_results).toBeGreaterThan(1000);
  });

  it.each([
    ['movie', 18],
    ['tv', 16],
  ])('genre/%s/list lists TMDB genres', async (type, count) => {
    const { body } = await getJson(url(`/3/genre/${type}/list?language=en-US`));
    expect(body.genres).toHaveLength(count);
    expect(body.genres).toContainEqual({ id: 35, name: 'Comedy' });
  });

  it.each(['movie', 'tv', 'multi'])('search/%s finds by name and genre name', async (scope) => {
    const { status, body } = await getJson(url(`/3/search/${scope}?query=comedy&page=1&include_adult=false`));
    expect(status).toBe(200);
    expectPage(body);
    expect(body.total_results).toBeGreaterThan(20);
    for (const t of body.results) expect(t.media_type).toEqual(scope === 'multi' ? expect.stringMatching(/^(movie|tv)$/) : scope);
  });

  it('search handles Unicode queries', async () => {
    const { status, body } = await getJson(url(`/3/search/multi?query=${encodeURIComponent('Zürich')}`));
    expect(status).toBe(200);
    expect(body.results.length).toBeGreaterThan(0);
    const odd = await getJson(url(`/3/search/multi?query=${encodeURIComponent('東京 🎬 <script>')}`));
    expect(odd.status).toBe(200);
    expect(odd.body.results).toEqual([]);
  });

  it('an empty query is a search for nothing', async () => {
    const { status, body } = await getJson(url('/3/search/multi?query=&page=1'));
    expect(status).toBe(200);
    expect(body).toEqual({ page: 1, results: [], total_pages: 1, total_results: 0 });
  });

  it('movie/604 is the featured movie with full details', async () => {
    const { status, body } = await getJson(url('/3/movie/604?api_key=x&language=en-US'));
    expect(status).toBe(200);
    expect(body).toEqual(
      expect.objectContaining({
        id: 604,
        title: expect.any(String),
        overview: expect.any(String),
        runtime: expect.any(Number),
        release_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        genres: expect.arrayContaining([expect.objectContaining({ id: expect.any(Number), name: expect.any(String) })]),
        certification: expect.stringMatching(/^(G|PG|PG-13|R)$/),
      }),
    );
    expect(body.backdrop_path).toMatch(/^\/m604b-\w+\.svg$/);
    expect(body.poster_path).toMatch(/^\/m604p-\w+\.svg$/);
  });

  it('tv/{id} has series details and a TV certification', async () => {
    const id = (await getJson(url('/3/tv/popular'))).body.results[0].id;
    const { body } = await getJson(url(`/3/tv/${id}?language=en-US`));
    expect(body).toEqual(
      expect.objectContaining({ id, name: expect.any(String), number_of_seasons: expect.any(Number), episode_run_time: [expect.any(Number)] }),
    );
    expect(['TV-PG', 'TV-14', 'TV-MA']).toContain(body.certification);
  });

  it.each(['movie', 'tv'])('%s credits have cast and a Director', async (type) => {
    const id = (await getJson(url(`/3/${type}/popular`))).body.results[3].id;
    const { body } = await getJson(url(`/3/${type}/${id}/credits?language=en-US`));
    expect(body.id).toBe(id);
    expect(body.cast.length).toBeGreaterThanOrEqual(8);
    expect(body.cast[0]).toEqual(expect.objectContaining({ name: expect.any(String), character: expect.any(String) }));
    expect(body.crew.filter((p: any) => p.job === 'Director').length).toBeGreaterThanOrEqual(1);
  });

  it('videos offer the self-hosted clip, never YouTube, with a URL on this service', async () => {
    const { body } = await getJson(url('/3/movie/604/videos?language=en-US'));
    expect(body.id).toBe(604);
    expect(body.results).toEqual([
      expect.objectContaining({ key: 'demo-clip', site: 'Netnet', type: 'Trailer', url: `${service.url}/media/demo-clip.mp4` }),
    ]);
    const clip = await fetch(body.results[0].url);
    expect(clip.status).toBe(200);
    expect(clip.headers.get('content-type')).toBe('video/mp4');
  });

  it('some titles have no video at all', async () => {
    const ids = (await getJson(url('/3/movie/popular'))).body.results.map((t: any) => t.id);
    const lists = await Promise.all(ids.map(async (id: number) => (await getJson(url(`/3/movie/${id}/videos`))).body.results));
    expect(lists.some((results) => results.length === 0)).toBe(true);
    expect(lists.flat().every((v: any) => v.site !== 'YouTube')).toBe(true);
  });

  it('builds the clip URL from the configured public URL when there is one', async () => {
    const other = await serve({ size: 200, publicUrl: 'https://catalogue.example.test/' });
    try {
      const { body } = await getJson(`${other.url}/3/movie/604/videos`);
      expect(body.results[0].url).toBe('https://catalogue.example.test/media/demo-clip.mp4');
    } finally {
      await other.close();
    }
  });

  it('movie recommendations and tv similar share genres with the title', async () => {
    for (const [type, list] of [
      ['movie', 'recommendations'],
      ['tv', 'similar'],
    ] as const) {
      const title = (await getJson(url(`/3/${type}/popular`))).body.results[0];
      const { status, body } = await getJson(url(`/3/${type}/${title.id}/${list}?page=1`));
      expect(status).toBe(200);
      expectPage(body);
      expect(body.results.length).toBeGreaterThanOrEqual(12);
      for (const r of body.results) {
        expect(r.id).not.toBe(title.id);
        expect(r.genre_ids.some((g: number) => title.genre_ids.includes(g))).toBe(true);
      }
    }
  });

  it("also answers TMDB's movie/{id}/similar and tv/{id}/recommendations", async () => {
    const tvId = (await getJson(url('/3/tv/popular'))).body.results[0].id;
    expect((await getJson(url('/3/movie/604/similar'))).status).toBe(200);
    expect((await getJson(url(`/3/tv/${tvId}/recommendations`))).status).toBe(200);
  });

  it('movie/upcoming lists releases after today', async () => {
    const { body } = await getJson(url('/3/movie/upcoming?page=1'));
    expectPage(body);
    expect(body.results.length).toBe(20);
    expect(body.results.every((t: any) => t.release_date > '2025-06-01')).toBe(true);
    expect(body.dates).toEqual({ minimum: '2025-06-02', maximum: expect.any(String) });
  });

  it('health says the mode and size', async () => {
    expect((await getJson(url('/health'))).body).toEqual({ status: 'ok', mode: 'embedded', titles: 3000 });
  });
});

describe('HTTP behaviour', () => {
  it('compresses JSON with brotli or gzip as the client allows', async () => {
    const plain = await raw(url('/3/movie/popular'));
    const br = await raw(url('/3/movie/popular'), { headers: { 'Accept-Encoding': 'gzip, br' } });
    const gzip = await raw(url('/3/movie/popular'), { headers: { 'Accept-Encoding': 'gzip, br;q=0' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(br.headers.vary).toContain('Accept-Encoding');
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await raw(url('/3/movie/604'));
    const again = await raw(url('/3/movie/604'), { headers: { 'If-None-Match': String(first.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers HEAD without a body', async () => {
    const head = await raw(url('/3/movie/604'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('serves the demo clip with byte ranges so the player can seek', async () => {
    const full = await raw(url('/media/demo-clip.mp4'));
    expect(full.status).toBe(200);
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.headers['cache-control']).toMatch(/max-age=\d{6,}/);
    expect(full.body.length).toBeLessThan(300 * 1024);
    const part = await raw(url('/media/demo-clip.mp4'), { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${full.body.length}`);
    expect(part.body.equals(full.body.subarray(100, 200))).toBe(true);
    const tail = await raw(url('/media/demo-clip.mp4'), { headers: { Range: 'bytes=-10' } });
    expect(tail.body.equals(full.body.subarray(full.body.length - 10))).toBe(true);
    const open = await raw(url('/media/demo-clip.mp4'), { headers: { Range: `bytes=${full.body.length - 5}-` } });
    expect(open.body.length).toBe(5);
    const bad = await raw(url('/media/demo-clip.mp4'), { headers: { Range: `bytes=${full.body.length}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe(`bytes */${full.body.length}`);
    const poster = await raw(url('/media/demo-clip.jpg'));
    expect(poster.headers['content-type']).toBe('image/jpeg');
  });

  it('does not serve other files from the media folder or outside it', async () => {
    for (const path of ['/media/README.md', '/media/..%2Fpackage.json', '/media/../package.json', '/media/']) {
      const res = await raw(url(path));
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body.toString()).status_code).toBe(34);
    }
  });
});
