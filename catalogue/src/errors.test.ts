import { raw, serve, type Running } from './test/serve';

let service: Running;
beforeAll(async () => {
  service = await serve({ size: 500 });
});
afterAll(() => service.close());

async function expectError(path: string, httpStatus: number, statusCode: number, method = 'GET') {
  const res = await raw(`${service.url}${path}`, { method });
  expect(res.status).toBe(httpStatus);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body.toString());
  expect(body).toEqual({ success: false, status_code: statusCode, status_message: expect.any(String) });
  return body;
}

describe('bad input gets TMDB-shaped 4xx JSON, never a 500', () => {
  it.each([
    '/',
    '/3',
    '/3/',
    '/3/movie',
    '/3/person/popular',
    '/3/foo/1',
    '/3/movie/popular/extra',
    '/3/genre/person/list',
    '/3/discover/person',
    '/3/search/person?query=a',
    '/3/movie/604/reviews',
    '/3//movie/604',
    '/t/p/w92',
    '/favicon.ico',
  ])('unknown path %s → 404 (34)', async (path) => {
    const body = await expectError(path, 404, 34);
    expect(body.status_message).toBe('The resource you requested could not be found.');
  });

  it.each([
    '/3/movie/abc',
    '/3/movie/-5',
    '/3/movie/0',
    '/3/movie/6.04',
    '/3/movie/0604',
    '/3/movie/99999999999999999999',
    '/3/movie/2147483648',
    '/3/movie/999999999',
    '/3/tv/abc/credits',
    '/3/movie/999999999/videos',
    '/3/tv/999999999/similar',
    '/3/movie/%00',
  ])('bad or unknown id %s → 404 (34)', async (path) => {
    await expectError(path, 404, 34);
  });

  it.each(['0', '-1', '501', 'abc', '1.5', '', '1e2', '99999999999'])('page=%s → 422 (22)', async (page) => {
    const body = await expectError(`/3/movie/popular?page=${page}`, 422, 22);
    expect(body.status_message).toBe('Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.');
    await expectError(`/3/search/multi?query=a&page=${page}`, 422, 22);
    await expectError(`/3/discover/tv?with_genres=18&page=${page}`, 422, 22);
  });

  it('a missing query → 422; an oversized one → 422', async () => {
    await expectError('/3/search/movie', 422, 5);
    await expectError(`/3/search/multi?query=${'a'.repeat(501)}`, 422, 5);
    const ok = await raw(`${service.url}/3/search/multi?query=${'a'.repeat(500)}`);
    expect(ok.status).toBe(200);
  });

  it('a malformed with_genres → 422', async () => {
    await expectError('/3/discover/movie?with_genres=comedy', 422, 47);
    await expectError('/3/discover/movie?with_genres=35,,18', 422, 47);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s → 405 (42)', async (method) => {
    await expectError('/3/movie/popular', 405, 42, method);
  });

  it('keeps serving after a flood of bad requests', async () => {
    const paths = ['/3/movie/abc', '/3/x', '/%', '/3/movie/popular?page=%zz', '/3/search/multi?query=%E0%A4%A'];
    const results = await Promise.all(paths.map((p) => raw(`${service.url}${p}`)));
    for (const res of results) expect(res.status).toBeLessThan(500);
    expect((await raw(`${service.url}/3/movie/604`)).status).toBe(200);
  });
});
