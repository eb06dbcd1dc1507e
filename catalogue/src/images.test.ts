import { artworkPath } from './data/artwork';
import { generateCatalogue } from './data/generate';
import { parseToday, TitleRecord } from './data/model';
import { escapeXml, pixelSize, renderArtwork } from './images';
import { getJson, raw, serve, type Running } from './test/serve';

let service: Running;
beforeAll(async () => {
  service = await serve({ size: 1000, seed: 5 });
});
afterAll(() => service.close());

const sizes = ['w92', 'w154', 'w185', 'w342', 'w500', 'w780', 'w1280', 'original'] as const;

describe('generated artwork', () => {
  it.each(sizes)('serves every poster and backdrop at %s, sized and cached as immutable', async (size) => {
    const { body } = await getJson(`${service.url}/3/movie/604`);
    for (const [path, kind] of [
      [body.poster_path, 'poster'],
      [body.backdrop_path, 'backdrop'],
    ] as const) {
      const res = await raw(`${service.url}/t/p/${size}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const svg = res.body.toString();
      const { width, height } = pixelSize(kind, size);
      expect(svg).toContain(`width="${width}" height="${height}"`);
      expect(svg).toContain(escapeXml(body.title).split(' ')[0]);
    }
  });

  it('keeps the TMDB aspect ratios: posters 2:3, backdrops 16:9', () => {
    expect(pixelSize('poster', 'w342')).toEqual({ width: 342, height: 513 });
    expect(pixelSize('backdrop', 'w1280')).toEqual({ width: 1280, height: 720 });
    expect(pixelSize('backdrop', 'original')).toEqual({ width: 1920, height: 1080 });
  });

  it('every artwork path in a list resolves', async () => {
    const { body } = await getJson(`${service.url}/3/tv/popular?page=3`);
    const paths = body.results.flatMap((t: any) => [t.poster_path, t.backdrop_path].filter(Boolean));
    // A page of 20 titles, nearly all of them illustrated: an empty list would check nothing.
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) expect((await raw(`${service.url}/t/p/w185${path}`)).status).toBe(200);
  });

  it.each([
    '/t/p/w93/m604p-abc.svg',
    '/t/p/huge/m604p-abc.svg',
    '/t/p/w185/m604p-wrong.svg',
    '/t/p/w185/m999999999p-abc.svg',
    '/t/p/w185/nothing.jpg',
    '/t/p/w185/..%2F..%2Fpackage.json',
    '/t/p/w185/',
  ])('%s → 404 TMDB JSON', async (path) => {
    const res = await raw(`${service.url}${path}`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toEqual(expect.objectContaining({ success: false, status_code: 34 }));
  });

  it('404s the artwork of a title that has none, even under the name it would have had', async () => {
    // The server's own catalogue, generated again from the same options: a title it lists without
    // a poster, asked for under the exact file name a poster of that title would carry.
    const same = generateCatalogue({ size: 1000, seed: 5, today: parseToday('2025-06-01') });
    const bare = same.byPopularity.movie.find((t) => !t.hasPoster && t.hasBackdrop)!;
    expect(bare).toBeDefined();
    const { body } = await getJson(`${service.url}/3/movie/${bare.id}`);
    expect(body.poster_path).toBeNull();
    expect(body.backdrop_path).not.toBeNull();

    const poster = artworkPath(same.seed, 'movie', bare.id, 'poster', body.title);
    expect((await raw(`${service.url}/t/p/w185${poster}`)).status).toBe(404);
    // The same route serves the picture the title does have: the 404 is about the missing poster.
    expect((await raw(`${service.url}/t/p/w185${body.backdrop_path}`)).status).toBe(200);
  });

  it('escapes names in the SVG', () => {
    expect(escapeXml(`<Tom & "Jerry's">`)).toBe('&#60;Tom &#38; &#34;Jerry&#39;s&#34;&#62;');
    const catalogue = generateCatalogue({ size: 10, seed: 1, today: parseToday('2025-06-01') });
    const title = new TitleRecord(1, 'movie', 5, `Salt & <Iron> "Déjà" l'été`, [18], 20000, 1, 5, 5, true, true, true, 'R', 100);
    const svg = renderArtwork(catalogue, title, 'poster', 'w342');
    expect(svg).not.toMatch(/&(?!#\d+;)/);
    expect(svg).not.toContain('<Iron>');
    expect(svg).toContain('Salt &#38; &#60;Iron&#62;');
    // a well-formed document: every tag it opens, it closes
    const opened = (svg.match(/<(svg|text|tspan|defs|linearGradient)\b/g) ?? []).length;
    const closed = (svg.match(/<\/(svg|text|tspan|defs|linearGradient)>/g) ?? []).length;
    expect(opened).toBe(closed);
  });
});
