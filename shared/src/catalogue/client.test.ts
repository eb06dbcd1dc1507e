import { CACHE_TTL_MS, fetchCatalogue, retryDelay, TIMEOUT_MS } from './client';
import { CatalogueError } from './error';
import { catalogue, catalogueUrl } from './paths';
import { imageUrl } from './images';
import { CATALOGUE_URL as BASE, controllableFetch, fakeResponse, scriptedFetch, loadTestRuntimeConfig } from '@netnet/shared/testing';

const page = { page: 1, results: [{ id: 1, title: 'A' }], total_pages: 1, total_results: 1 };

beforeEach(() => {
  loadTestRuntimeConfig();
});
afterEach(() => {
  jest.useRealTimers();
});

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('paths', () => {
  it('builds every catalogue call the product makes under /3/', () => {
    expect(catalogueUrl(catalogue.popular('movie'))).toBe(`${BASE}/3/movie/popular?page=1`);
    expect(catalogueUrl(catalogue.discover('tv', 9648))).toBe(`${BASE}/3/discover/tv?with_genres=9648&page=1`);
    expect(catalogueUrl(catalogue.genres('movie'))).toBe(`${BASE}/3/genre/movie/list`);
    expect(catalogueUrl(catalogue.search('Déjà vu & co'))).toBe(`${BASE}/3/search/multi?query=D%C3%A9j%C3%A0+vu+%26+co&page=1`);
    expect(catalogueUrl(catalogue.details('tv', 1399))).toBe(`${BASE}/3/tv/1399?language=en-US`);
    expect(catalogueUrl(catalogue.credits('movie', 604))).toBe(`${BASE}/3/movie/604/credits?language=en-US`);
    expect(catalogueUrl(catalogue.videos('movie', 604))).toBe(`${BASE}/3/movie/604/videos?language=en-US`);
    expect(catalogueUrl(catalogue.similar('movie', 604))).toBe(`${BASE}/3/movie/604/recommendations?page=1`);
    expect(catalogueUrl(catalogue.similar('tv', 7))).toBe(`${BASE}/3/tv/7/similar?page=1`);
    expect(catalogueUrl(catalogue.upcoming())).toBe(`${BASE}/3/movie/upcoming?page=1`);
  });

  it('never puts an API key in a URL', () => {
    expect(catalogueUrl(catalogue.details('movie', 604))).not.toContain('api_key');
  });

  it('tolerates a trailing slash on the base URL', () => {
    expect(catalogueUrl(catalogue.genres('tv'), 'http://x/')).toBe('http://x/3/genre/tv/list');
  });
});

describe('imageUrl', () => {
  it('serves posters from the catalogue at the size asked for', () => {
    expect(imageUrl('/m604p-abc.svg', 'w185')).toBe(`${BASE}/t/p/w185/m604p-abc.svg`);
    expect(imageUrl('abc.jpg', 'original')).toBe(`${BASE}/t/p/original/abc.jpg`);
  });

  it('is null without a path', () => {
    expect(imageUrl(null, 'w92')).toBeNull();
    expect(imageUrl(undefined, 'w92')).toBeNull();
    expect(imageUrl('', 'w92')).toBeNull();
  });
});

describe('fetchCatalogue', () => {
  it('fetches once, then answers from its cache', async () => {
    const fetchMock = scriptedFetch(fakeResponse(200, page));
    expect(await fetchCatalogue(catalogue.popular('movie'))).toEqual(page);
    expect(await fetchCatalogue(catalogue.popular('movie'))).toEqual(page);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe(`${BASE}/3/movie/popular?page=1`);
  });

  it('asks again once the cached answer is older than the TTL', async () => {
    jest.useFakeTimers({ now: 0 });
    const fetchMock = scriptedFetch(fakeResponse(200, page));
    await fetchCatalogue(catalogue.popular('movie'));
    jest.setSystemTime(CACHE_TTL_MS + 1);
    await fetchCatalogue(catalogue.popular('movie'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('shares one fetch among identical calls in flight', async () => {
    const { fetchMock, calls } = controllableFetch();
    const a = fetchCatalogue(catalogue.details('movie', 604));
    const b = fetchCatalogue(catalogue.details('movie', 604));
    const other = fetchCatalogue(catalogue.details('movie', 605));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    calls[0]!.respond(fakeResponse(200, { id: 604 }));
    calls[1]!.respond(fakeResponse(200, { id: 605 }));
    expect(await a).toEqual({ id: 604 });
    expect(await b).toEqual({ id: 604 });
    expect(await other).toEqual({ id: 605 });
  });

  it('lets one caller abort without cancelling the fetch others wait for', async () => {
    const { fetchMock, calls } = controllableFetch();
    const leaving = new AbortController();
    const a = fetchCatalogue(catalogue.details('movie', 604), { signal: leaving.signal });
    const b = fetchCatalogue(catalogue.details('movie', 604));
    leaving.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    await flush();
    expect(calls[0]!.signal.aborted).toBe(false);
    calls[0]!.respond(fakeResponse(200, { id: 604 }));
    expect(await b).toEqual({ id: 604 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('cancels the fetch when every caller has aborted', async () => {
    const { calls } = controllableFetch();
    const one = new AbortController();
    const two = new AbortController();
    const a = fetchCatalogue(catalogue.details('tv', 1), { signal: one.signal });
    const b = fetchCatalogue(catalogue.details('tv', 1), { signal: two.signal });
    one.abort();
    two.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
    await flush();
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  it('re-joins a call that is being left and re-entered at once (StrictMode)', async () => {
    const { fetchMock, calls } = controllableFetch();
    const first = new AbortController();
    const a = fetchCatalogue(catalogue.details('tv', 2), { signal: first.signal });
    first.abort();
    const b = fetchCatalogue(catalogue.details('tv', 2));
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    await flush();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(calls[0]!.signal.aborted).toBe(false);
    calls[0]!.respond(fakeResponse(200, { id: 2 }));
    expect(await b).toEqual({ id: 2 });
  });

  it('rejects at once when the signal is already aborted', async () => {
    const fetchMock = scriptedFetch(fakeResponse(200, page));
    const controller = new AbortController();
    controller.abort();
    await expect(fetchCatalogue(catalogue.popular('tv'), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('gives up after the timeout with a readable error, never loading for ever', async () => {
    jest.useFakeTimers();
    const { calls } = controllableFetch();
    const pending = fetchCatalogue(catalogue.popular('movie'));
    const outcome = pending.catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(TIMEOUT_MS);
    const error = (await outcome) as CatalogueError;
    expect(error).toBeInstanceOf(CatalogueError);
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not answer within 10 seconds/);
    expect(calls[0]!.signal.aborted).toBe(true);
  });

  it('retries once after a 429, waiting for Retry-After', async () => {
    jest.useFakeTimers();
    const fetchMock = scriptedFetch(fakeResponse(429, { success: false, status_code: 25, status_message: 'Slow down' }, { 'Retry-After': '2' }), fakeResponse(200, page));
    const result = fetchCatalogue(catalogue.popular('movie'));
    await jest.advanceTimersByTimeAsync(1999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(await result).toEqual(page);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('retries only once: a second 429 is an error', async () => {
    jest.useFakeTimers();
    const limited = fakeResponse(429, { success: false, status_code: 25, status_message: 'Your request count is over the allowed limit.' });
    const fetchMock = scriptedFetch(limited, limited, fakeResponse(200, page));
    const outcome = fetchCatalogue(catalogue.popular('movie')).catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(1000);
    const error = (await outcome) as CatalogueError;
    expect(error).toMatchObject({ kind: 'http', status: 429, statusCode: 25, message: 'Your request count is over the allowed limit.' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('caps the Retry-After wait', () => {
    expect(retryDelay('2')).toBe(2000);
    expect(retryDelay('120')).toBe(3000);
    expect(retryDelay(null)).toBe(1000);
    expect(retryDelay('soon')).toBe(1000);
    expect(retryDelay(new Date(10_000).toUTCString(), 9_000)).toBe(1000);
  });

  it('takes the message of a TMDB error body', async () => {
    scriptedFetch(fakeResponse(404, { success: false, status_code: 34, status_message: 'The resource you requested could not be found.' }));
    await expect(fetchCatalogue(catalogue.details('movie', 1))).rejects.toMatchObject({
      name: 'CatalogueError',
      kind: 'http',
      status: 404,
      statusCode: 34,
      message: 'The resource you requested could not be found.',
      url: `${BASE}/3/movie/1?language=en-US`,
    });
  });

  it('describes an error without a TMDB body', async () => {
    scriptedFetch(fakeResponse(502, '<html>Bad gateway</html>'));
    await expect(fetchCatalogue(catalogue.details('movie', 1))).rejects.toMatchObject({ kind: 'http', status: 502, message: 'The catalogue answered with HTTP 502.' });
  });

  it.each([
    ['an empty body', '', 'empty'],
    ['whitespace', '  \n', 'empty'],
    ['null', 'null', 'empty'],
    ['malformed JSON', '{"page": 1', 'parse'],
  ])('treats %s with a 200 as an error', async (_what, body, kind) => {
    scriptedFetch(fakeResponse(200, body));
    const error = await fetchCatalogue(catalogue.popular('tv')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogueError);
    expect((error as CatalogueError).kind).toBe(kind);
  });

  it('turns a network failure into a readable error, and does not cache failures', async () => {
    const fetchMock = scriptedFetch(new TypeError('Failed to fetch'), fakeResponse(200, page));
    await expect(fetchCatalogue(catalogue.popular('tv'))).rejects.toMatchObject({
      kind: 'network',
      status: 0,
      message: 'The catalogue could not be reached. Check your connection and try again.',
    });
    expect(await fetchCatalogue(catalogue.popular('tv'))).toEqual(page);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
