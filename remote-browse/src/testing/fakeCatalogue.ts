import { clearCatalogueCache, setRuntimeConfig, type TitleSummary } from '@netnet/shared';

// The catalogue as the tests want it: a fake fetch answering TMDB v3 paths, so components are
// tested through the real catalogue client, from request to what the member sees.

type Answer = unknown | { status: number } | 'pending';
/** Keys are the path after /3/, plus `?with_genres=N` for discover calls. */
export type CatalogueAnswers = Record<string, Answer>;

const CATALOGUE_URL = 'http://catalogue.test';

function keyOf(url: URL): string {
  const path = url.pathname.replace(/^\/3\//, '');
  const genres = url.searchParams.get('with_genres');
  return genres ? `${path}?with_genres=${genres}` : path;
}

const urlOf = (input: RequestInfo | URL): URL => new URL(typeof input === 'string' || input instanceof URL ? input : input.url);

function respond(status: number, body: unknown) {
  const text = JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: String(status),
    // jsdom has no Headers; a reader of content-type is all a JSON client asks of it.
    headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) },
    json: async () => JSON.parse(text) as unknown,
    text: async () => text,
    clone() {
      return respond(status, body);
    },
  } as unknown as Response;
}

/** The runtime config the shell would have loaded; image URLs are built from it. */
export function loadTestRuntimeConfig(): void {
  setRuntimeConfig({
    catalogueUrl: CATALOGUE_URL,
    firebase: { apiKey: 'test', authDomain: 'test', projectId: 'demo-netnet' },
    authEmulatorUrl: null,
  });
}

/** `otherwise` answers every path not listed: TMDB's 404 by default, or 'pending' to keep screens loading. */
export function fakeCatalogue(answers: CatalogueAnswers, otherwise: 'not found' | 'pending' = 'not found') {
  // The client caches answers per URL for minutes; each test starts from a cold catalogue.
  clearCatalogueCache();
  loadTestRuntimeConfig();
  const fetchMock = jest.fn(async (input: RequestInfo | URL) => {
    const url = urlOf(input);
    const answer = answers[keyOf(url)] ?? (otherwise === 'pending' ? 'pending' : undefined);
    if (answer === 'pending') return new Promise<Response>(() => undefined);
    if (answer === undefined) return respond(404, { success: false, status_code: 34, status_message: 'Not found.' });
    if (answer && typeof answer === 'object' && 'status' in answer && typeof answer.status === 'number') {
      return respond(answer.status, { success: false, status_code: 11, status_message: 'Internal error.' });
    }
    return respond(200, answer);
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return { fetchMock, requested: () => fetchMock.mock.calls.map(([input]) => keyOf(urlOf(input))) };
}

/** A list page of titles as TMDB sends it. */
export function page(results: Partial<TitleSummary>[]) {
  return { page: 1, results: results.map(summary), total_pages: 1, total_results: results.length };
}

export function summary(title: Partial<TitleSummary>): TitleSummary {
  return {
    id: 1,
    poster_path: '/poster.jpg',
    backdrop_path: '/backdrop.jpg',
    genre_ids: [],
    overview: '',
    vote_average: 7,
    ...title,
  };
}
