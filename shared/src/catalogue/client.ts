// fetchCatalogue: one GET per URL at a time, answers cached for a while, never endless.
//  - a bounded in-memory cache per URL, with a TTL (docs/product.md#catalogue-calls);
//  - identical calls in flight share one fetch; a caller that aborts leaves, and the fetch is
//    cancelled only when nobody is left waiting for it;
//  - a timeout, so a screen never stays on "loading" for good;
//  - one polite retry on 429, after Retry-After (capped);
//  - a non-ok status or an empty body is an error (docs/product.md#error-catalogue), as a CatalogueError.
import { CatalogueError, isCatalogueErrorBody } from './error';
import { catalogueUrl, type CatalogueRequest } from './paths';

export { CatalogueError } from './error';

export const CACHE_TTL_MS = 5 * 60_000;
export const CACHE_MAX_ENTRIES = 200;
export const TIMEOUT_MS = 10_000;
/** The longest a 429 makes us wait before the one retry. */
export const RETRY_AFTER_CAP_MS = 3_000;

export interface FetchCatalogueOptions {
  signal?: AbortSignal;
  /** Overrides TIMEOUT_MS (covers the whole call, retry included). */
  timeoutMs?: number;
}

interface Cached {
  data: unknown;
  storedAt: number;
}

interface InFlight {
  promise: Promise<unknown>;
  controller: AbortController;
  waiting: number;
  cancelTimer?: ReturnType<typeof setTimeout>;
}

const cache = new Map<string, Cached>();
const inFlight = new Map<string, InFlight>();

/** The cached body for a URL, if still fresh. */
export function readCached<T>(url: string): T | undefined {
  const entry = cache.get(url);
  if (!entry) return undefined;
  if (Date.now() - entry.storedAt > CACHE_TTL_MS) {
    cache.delete(url);
    return undefined;
  }
  return entry.data as T;
}

function store(url: string, data: unknown): void {
  cache.delete(url);
  cache.set(url, { data, storedAt: Date.now() });
  // A Map iterates in insertion order: the first key is the oldest.
  if (cache.size > CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
}

/**
 * Takes answers the server already fetched for this page (docs/architecture.md#server-rendering),
 * so the first render finds them and nothing is asked twice.
 */
export function seedCatalogueCache(answers: Readonly<Record<string, unknown>>): void {
  for (const [url, data] of Object.entries(answers)) {
    if (data !== null && typeof data === 'object') store(url, data);
  }
}

/**
 * Forgets every cached answer, and stops sharing the calls in flight (they still answer whoever
 * waits for them, so no mounted screen is left loading).
 */
export function clearCatalogueCache(): void {
  cache.clear();
  inFlight.clear();
}

const abortError = (signal: AbortSignal): unknown =>
  signal.reason ?? Object.assign(new Error('The request was aborted.'), { name: 'AbortError' });

export function fetchCatalogue<T>(request: CatalogueRequest<T>, options: FetchCatalogueOptions = {}): Promise<T> {
  return fetchCatalogueUrl<T>(catalogueUrl(request), options);
}

/** fetchCatalogue for a URL already made (a server render knows the page's calls by URL). */
export function fetchCatalogueUrl<T>(url: string, options: FetchCatalogueOptions = {}): Promise<T> {
  const cached = readCached<T>(url);
  if (cached !== undefined) return Promise.resolve(cached);
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));

  let call = inFlight.get(url);
  if (!call) {
    call = start(url, options.timeoutMs ?? TIMEOUT_MS);
    inFlight.set(url, call);
  }
  const shared = call;
  shared.waiting++;
  clearTimeout(shared.cancelTimer);

  return new Promise<T>((resolve, reject) => {
    let done = false;
    const finish = () => {
      done = true;
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      if (done) return;
      finish();
      leave(url, shared);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    shared.promise.then(
      (data) => {
        if (done) return;
        finish();
        shared.waiting--;
        resolve(data as T);
      },
      (error: unknown) => {
        if (done) return;
        finish();
        shared.waiting--;
        reject(error);
      },
    );
  });
}

function leave(url: string, call: InFlight): void {
  call.waiting--;
  if (call.waiting > 0) return;
  // Cancel a moment later, not now: React StrictMode (and a quick re-render) unsubscribes and
  // subscribes again at once, and should re-join this call rather than start another.
  call.cancelTimer = setTimeout(() => {
    if (call.waiting > 0 || inFlight.get(url) !== call) return;
    inFlight.delete(url);
    call.controller.abort();
  }, 0);
}

function start(url: string, timeoutMs: number): InFlight {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const call: InFlight = { controller, waiting: 0, promise: Promise.resolve() };
  call.promise = load(url, controller.signal, () => timedOut, timeoutMs)
    .then((data) => {
      store(url, data);
      return data;
    })
    .finally(() => {
      clearTimeout(timer);
      if (inFlight.get(url) === call) inFlight.delete(url);
    });
  // Every waiter handles the outcome; when all have left, nobody does — and that is fine.
  call.promise.catch(() => {});
  return call;
}

async function load(url: string, signal: AbortSignal, timedOut: () => boolean, timeoutMs: number): Promise<unknown> {
  try {
    let response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
    if (response.status === 429) {
      await wait(retryDelay(response.headers.get('Retry-After')), signal);
      response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
    }
    return await read(response, url);
  } catch (error) {
    if (error instanceof CatalogueError) throw error;
    if (timedOut()) {
      throw new CatalogueError(`The catalogue did not answer within ${Math.round(timeoutMs / 1000)} seconds.`, { kind: 'timeout', url });
    }
    if (signal.aborted) throw abortError(signal);
    throw new CatalogueError('The catalogue could not be reached. Check your connection and try again.', { kind: 'network', url, cause: error });
  }
}

/** Retry-After in seconds or as an HTTP date, capped; 1 s when absent or unreadable. */
export function retryDelay(header: string | null, now = Date.now()): number {
  let ms = 1000;
  if (header && /^\d+$/.test(header.trim())) ms = Number(header.trim()) * 1000;
  else if (header && !Number.isNaN(Date.parse(header))) ms = Date.parse(header) - now;
  return Math.min(Math.max(ms, 0), RETRY_AFTER_CAP_MS);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(abortError(signal));
    }, { once: true });
  });
}

async function read(response: Response, url: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) {
    const body = parseJson(text);
    const message = isCatalogueErrorBody(body) ? body.status_message : `The catalogue answered with HTTP ${response.status}.`;
    const statusCode = isCatalogueErrorBody(body) && typeof body.status_code === 'number' ? body.status_code : null;
    throw new CatalogueError(message, { kind: 'http', url, status: response.status, statusCode });
  }
  if (text.trim() === '') throw new CatalogueError('The catalogue sent an empty answer.', { kind: 'empty', url, status: response.status });
  const data = parseJson(text);
  if (data === undefined) throw new CatalogueError('The catalogue sent an answer that is not valid JSON.', { kind: 'parse', url, status: response.status });
  if (data === null || typeof data !== 'object') {
    throw new CatalogueError('The catalogue sent an answer with no data.', { kind: 'empty', url, status: response.status });
  }
  return data;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
