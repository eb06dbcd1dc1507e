import { fetchCatalogueUrl, type CatalogueState, type ServerCatalogue } from '@netnet/shared';

/** One page request's catalogue calls: what the render used, ready to hand to the browser. */
export interface RequestCatalogue extends ServerCatalogue {
  /** The answers the render used, by URL: the browser takes them instead of asking again. */
  answers(): Record<string, unknown>;
  /** From now on, calls not yet answered render as loading and are left to the browser. */
  stopWaiting(): void;
}

const LOADING = { status: 'loading' } as const;

/**
 * A record for one render. Each URL is fetched once (the client's cache and de-duplication apply
 * across requests, the catalogue being the same for everyone); an answer that fails, or comes
 * after `signal` aborts, renders as loading, and the browser asks for it itself, as it would have
 * without a server.
 */
export function createServerCatalogue(signal: AbortSignal): RequestCatalogue {
  const settled = new Map<string, CatalogueState<unknown>>();
  const pending = new Map<string, Promise<CatalogueState<unknown>>>();
  let waiting = !signal.aborted;
  const giveUp: Array<() => void> = [];
  const stopWaiting = () => {
    waiting = false;
    giveUp.splice(0).forEach((resolve) => resolve());
  };
  signal.addEventListener('abort', stopWaiting, { once: true });

  return {
    read<T>(url: string) {
      const known = settled.get(url);
      if (known) return known as CatalogueState<T>;
      if (!waiting) return LOADING;
      let answer = pending.get(url);
      if (!answer) {
        const fetched = fetchCatalogueUrl<unknown>(url, { signal }).then(
          (data): CatalogueState<unknown> => ({ status: 'fetched', data }),
          (): CatalogueState<unknown> => LOADING,
        );
        const late = new Promise<CatalogueState<unknown>>((resolve) => giveUp.push(() => resolve(LOADING)));
        answer = Promise.race([fetched, late]).then((state) => {
          settled.set(url, state);
          pending.delete(url);
          return state;
        });
        pending.set(url, answer);
      }
      return answer as Promise<CatalogueState<T>>;
    },
    answers() {
      const answers: Record<string, unknown> = {};
      for (const [url, state] of settled) if (state.status === 'fetched') answers[url] = state.data;
      return answers;
    },
    stopWaiting,
  };
}
