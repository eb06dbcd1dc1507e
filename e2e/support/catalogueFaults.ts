import type { BrowserContext, Page, Route } from '@playwright/test';
import { catalogueUrl } from './site';

// Catalogue failures injected on the catalogue's API only (/3/…): images keep loading, so what
// changes on screen is what the member sees when the data itself cannot be had.

export type CatalogueFault = '500' | 'malformed JSON' | 'timeout' | '429';

export interface CatalogueFaultOptions {
  /** Only the API paths this matches (pathname + search), e.g. /discover\/movie\?with_genres=35/. */
  only?: RegExp;
  /** For 429: how many requests are refused before the catalogue answers again (default: all). */
  times?: number;
  /** For 429: the Retry-After header, in seconds. */
  retryAfter?: number;
}

export interface BrokenCatalogue {
  /** Requests the fault saw for API paths matching `filter` (all of them without one). */
  hits(filter?: RegExp): number;
  /** When those requests arrived (ms since the epoch), in order. */
  arrivals(filter?: RegExp): number[];
  restore(): Promise<void>;
}

const ERROR_BODY = { success: false, status_code: 11, status_message: 'Internal error: Something went wrong, contact TMDb.' };

export async function breakCatalogue(
  target: Page | BrowserContext,
  fault: CatalogueFault,
  { only, times = Infinity, retryAfter = 1 }: CatalogueFaultOptions = {},
): Promise<BrokenCatalogue> {
  const seen: { path: string; at: number }[] = [];
  const held: Route[] = [];
  const matches = (url: URL) => url.origin === catalogueUrl && url.pathname.startsWith('/3/') && (!only || only.test(url.pathname + url.search));

  const handler = async (route: Route) => {
    const url = new URL(route.request().url());
    const path = url.pathname + url.search;
    seen.push({ path, at: Date.now() });
    switch (fault) {
      case '500':
        return route.fulfill({ status: 500, json: ERROR_BODY, headers: { 'Access-Control-Allow-Origin': '*' } });
      case 'malformed JSON':
        return route.fulfill({
          status: 200,
          contentType: 'application/json',
          headers: { 'Access-Control-Allow-Origin': '*' },
          body: '{"page": 1, "results": [{"id": 1, "title": "Cut short',
        });
      case '429':
        if (seen.filter((request) => request.path === path).length > times) return route.continue();
        return route.fulfill({
          status: 429,
          json: { success: false, status_code: 25, status_message: 'Your request count (41) is over the allowed limit of 40.' },
          headers: { 'Access-Control-Allow-Origin': '*', 'Retry-After': String(retryAfter) },
        });
      case 'timeout':
        // Never answered: only the client's own timeout ends it.
        held.push(route);
        return;
    }
  };
  await target.route(matches, handler);

  return {
    hits: (filter) => seen.filter(({ path }) => !filter || filter.test(path)).length,
    arrivals: (filter) => seen.filter(({ path }) => !filter || filter.test(path)).map(({ at }) => at),
    async restore() {
      await target.unroute(matches, handler);
      for (const route of held.splice(0)) await route.abort('connectionreset').catch(() => undefined);
    },
  };
}
