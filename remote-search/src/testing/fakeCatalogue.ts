// Test helpers: the search page talks to the real catalogue client, and only fetch is faked
// (jsdom has no fetch or Response), so the tests see what a member would.
import { clearCatalogueCache, setRuntimeConfig, type Page, type TitleSummary } from '@netnet/shared';

export const CATALOGUE = 'http://catalogue.test';

export type Answer = { status: number; body: unknown } | Error;

export function useTestCatalogue(): void {
  setRuntimeConfig({
    catalogueUrl: CATALOGUE,
    firebase: { apiKey: 'test', authDomain: 'test', projectId: 'demo-netnet' },
    authEmulatorUrl: null,
  });
  clearCatalogueCache();
}

/** Stubs fetch: each call is answered by `answer(query)`, which may wait. */
export function stubSearch(answer: (query: string) => Answer | Promise<Answer>) {
  const fetchMock = jest.fn(async (url: string) => {
    const reply = await answer(new URL(url).searchParams.get('query') ?? '');
    if (reply instanceof Error) throw reply;
    const text = JSON.stringify(reply.body);
    return {
      ok: reply.status >= 200 && reply.status < 300,
      status: reply.status,
      headers: { get: () => null },
      text: () => Promise.resolve(text),
    } as unknown as Response;
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

/** The URLs fetch was called with, to read their path and query. */
export const askedUrls = (fetchMock: jest.Mock) => fetchMock.mock.calls.map(([url]) => new URL(url as string));

export const ok = (results: TitleSummary[]): Answer => ({ status: 200, body: page(results) });

export function page(results: TitleSummary[]): Page<TitleSummary> {
  return { page: 1, results, total_pages: 1, total_results: results.length };
}

export function title(overrides: Partial<TitleSummary>): TitleSummary {
  return {
    id: 1,
    poster_path: '/poster.svg',
    backdrop_path: '/backdrop.svg',
    genre_ids: [],
    overview: '',
    vote_average: 7,
    ...overrides,
  };
}

/** A promise the test settles when it wants (to hold a call in flight). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}
