// The catalogue as tests want it: a fake fetch answering TMDB v3 paths, so components are tested
// through the real catalogue client, from request to what the member sees.
import { abortError, fakeResponse } from './fakeResponse';
import { loadTestRuntimeConfig } from './runtimeConfig';

/** A failed call: the status, and TMDB's error body unless another is given. */
export interface Failure {
  status: number;
  body?: unknown;
}

/**
 * What the catalogue answers to one call: a body (status 200), a `Failure`, 'pending' (never
 * answers; the call rejects when its caller aborts, like a real fetch), or an Error (network failure).
 */
export type Answer = unknown;

/**
 * Keys are the path after /3/, with the query the client adds by itself left out (`page`,
 * `language`): 'movie/604', 'movie/604/credits', 'discover/movie?with_genres=28'. The object is
 * read at each call, so a test may change an answer between two calls.
 */
export type CatalogueAnswers = Record<string, Answer>;

/** Answers by request instead of by key (e.g. by the search query); may wait. */
export type Answerer = (url: URL) => Answer | Promise<Answer>;

export const notFound: Failure = { status: 404, body: { success: false, status_code: 34, status_message: 'Not found.' } };
const internalError = { success: false, status_code: 11, status_message: 'Internal error.' };

const CLIENT_PARAMS = ['page', 'language'];

/** The key of a catalogue URL, as `CatalogueAnswers` are keyed. */
export function catalogueKey(url: URL): string {
  const params = new URLSearchParams(url.search);
  for (const name of CLIENT_PARAMS) params.delete(name);
  const path = url.pathname.replace(/^\/3\//, '');
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

function isFailure(answer: unknown): answer is Failure {
  if (!answer || typeof answer !== 'object') return false;
  const keys = Object.keys(answer);
  return typeof (answer as Failure).status === 'number' && keys.every((key) => key === 'status' || key === 'body');
}

function pendingUntilAborted(signal: AbortSignal | null | undefined): Promise<Response> {
  return new Promise((_resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    signal?.addEventListener('abort', () => reject(abortError()), { once: true });
  });
}

const urlOf = (input: RequestInfo | URL): URL => new URL(typeof input === 'string' || input instanceof URL ? input : input.url);

/**
 * Loads the test runtime config, empties the catalogue cache and stubs fetch. Paths not listed get
 * `otherwise` (TMDB's 404 by default; 'pending' keeps screens loading).
 */
export function fakeCatalogue(answers: CatalogueAnswers | Answerer, { otherwise = notFound as Answer } = {}) {
  loadTestRuntimeConfig();
  const reply = (answer: Answer, signal: AbortSignal | null | undefined): Promise<Response> => {
    if (answer === 'pending') return pendingUntilAborted(signal);
    if (answer instanceof Error) return Promise.reject(answer);
    if (isFailure(answer)) return Promise.resolve(fakeResponse(answer.status, answer.body ?? internalError));
    return Promise.resolve(fakeResponse(200, answer));
  };
  // Answers as soon as a real fetch could: an answer given as a value is not delayed by extra ticks.
  const fetchMock = jest.fn((input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = urlOf(input);
    const key = catalogueKey(url);
    const answer = typeof answers === 'function' ? answers(url) : key in answers ? answers[key] : otherwise;
    return answer instanceof Promise ? answer.then((settled) => reply(settled, init?.signal)) : reply(answer, init?.signal);
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  const urls = () => fetchMock.mock.calls.map(([input]) => urlOf(input));
  return {
    fetchMock,
    /** The URLs fetch was called with. */
    urls,
    /** The keys of the calls made, in order. */
    requested: () => urls().map(catalogueKey),
  };
}
