// Fetch stand-ins for tests of the catalogue client itself, where a test decides when and how
// each call is answered.
import { abortError } from './fakeResponse';

/** A fetch that answers when told to, and rejects like a real one when its signal aborts. */
export function controllableFetch() {
  const calls: Array<{ url: string; signal: AbortSignal; respond: (r: Response) => void; fail: (e: unknown) => void }> = [];
  const fetchMock = jest.fn((url: string, init?: RequestInit) => {
    const signal = init!.signal!;
    return new Promise<Response>((resolve, reject) => {
      if (signal.aborted) return reject(abortError());
      signal.addEventListener('abort', () => reject(abortError()), { once: true });
      calls.push({ url, signal, respond: resolve, fail: reject });
    });
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return { fetchMock, calls };
}

/** A fetch that answers each call with the next response given (the last one repeats). */
export function scriptedFetch(...responses: Array<Response | Error>) {
  let n = 0;
  const fetchMock = jest.fn((_url: string, init?: RequestInit) => {
    const next = responses[Math.min(n++, responses.length - 1)]!;
    if (init?.signal?.aborted) return Promise.reject(abortError());
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}
