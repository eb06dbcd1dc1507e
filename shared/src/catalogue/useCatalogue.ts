// useCatalogue: a catalogue call in the states a screen shows — loading, then fetched or error — with
// retry(). A null request means "not ready to ask yet" (e.g. the id is not known): it stays
// loading and fetches nothing. The call is aborted on unmount or when the request changes.
import { use, useCallback, useContext, useEffect, useEffectEvent, useState } from 'react';
import { fetchCatalogue, readCached } from './client';
import { CatalogueError, isAbortError } from './error';
import { catalogueUrl, type CatalogueRequest } from './paths';
import { ServerCatalogueContext } from './serverRender';

export type CatalogueState<T> =
  | { status: 'loading' }
  | { status: 'fetched'; data: T }
  | { status: 'error'; error: CatalogueError };

export type CatalogueResult<T> = CatalogueState<T> & { retry: () => void };

const LOADING = { status: 'loading' } as const;

interface Settled<T> {
  url: string;
  attempt: number;
  state: CatalogueState<T>;
}

export function useCatalogue<T>(request: CatalogueRequest<T> | null): CatalogueResult<T> {
  const url = request ? catalogueUrl(request) : null;
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const server = useContext(ServerCatalogueContext);

  // The answer for this very URL and attempt; else a cached one (no loading flash when a
  // screen comes back); else loading. On the server: the request's answer, waited for (the
  // render suspends) until the render's time is up, when it renders as loading for the browser
  // to finish.
  let state: CatalogueState<T> = LOADING;
  if (server && url) {
    const answer = server.read<T>(url);
    state = answer instanceof Promise ? use(answer) : answer;
  } else if (settled && settled.url === url && settled.attempt === attempt) state = settled.state;
  else if (url) {
    const cached = readCached<T>(url);
    if (cached !== undefined) state = { status: 'fetched', data: cached };
  }

  // `request` is a new object on every render; its URL is what identifies it. So the effect below
  // runs per URL and attempt, and this event reads the request of the render that asked.
  const load = useEffectEvent((signal: AbortSignal) => {
    if (!url || !request) return;
    fetchCatalogue(request, { signal }).then(
      (data) => setSettled({ url, attempt, state: { status: 'fetched', data } }),
      (error: unknown) => {
        if (signal.aborted || isAbortError(error)) return;
        setSettled({ url, attempt, state: { status: 'error', error: asCatalogueError(error, url) } });
      },
    );
  });

  useEffect(() => {
    if (!url) return;
    const cached = readCached<T>(url);
    if (cached !== undefined) {
      // Keep it for the life of this screen part, even if the shared cache lets it go.
      setSettled({ url, attempt, state: { status: 'fetched', data: cached } });
      return;
    }
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [url, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}

function asCatalogueError(error: unknown, url: string): CatalogueError {
  if (error instanceof CatalogueError) return error;
  return new CatalogueError(error instanceof Error ? error.message : 'The catalogue call failed.', { kind: 'network', url, cause: error });
}
