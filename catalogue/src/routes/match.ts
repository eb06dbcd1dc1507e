// The /3/ paths the service answers, and the validation TMDB applies to their parameters.
// Embedded and proxy modes share it, so the proxy never forwards a path the product does not use.
import { HttpError, errors } from '../errors';
import type { MediaType } from '../data/genres';

export type Route =
  | { kind: 'popular'; type: MediaType }
  | { kind: 'upcoming' }
  | { kind: 'discover'; type: MediaType }
  | { kind: 'genres'; type: MediaType }
  | { kind: 'search'; scope: MediaType | 'multi' }
  | { kind: 'details'; type: MediaType; id: number }
  | { kind: 'credits'; type: MediaType; id: number }
  | { kind: 'videos'; type: MediaType; id: number }
  | { kind: 'related'; type: MediaType; id: number; as: 'recommendations' | 'similar' };

const isMediaType = (value: string | undefined): value is MediaType => value === 'movie' || value === 'tv';

/** TMDB ids are positive 32-bit integers; anything else cannot name a title. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}

/** `path` is what follows `/3/`. Throws a TMDB 404 for anything else. */
export function matchRoute(path: string): Route {
  const parts = path.split('/');
  if (parts[parts.length - 1] === '') parts.pop(); // TMDB tolerates one trailing slash
  const [first, second, third] = parts;
  if (parts.length === 2 && isMediaType(first) && second === 'popular') return { kind: 'popular', type: first };
  if (parts.length === 2 && first === 'movie' && second === 'upcoming') return { kind: 'upcoming' };
  if (parts.length === 2 && first === 'discover' && isMediaType(second)) return { kind: 'discover', type: second };
  if (parts.length === 3 && first === 'genre' && isMediaType(second) && third === 'list') return { kind: 'genres', type: second };
  if (parts.length === 2 && first === 'search' && (isMediaType(second) || second === 'multi')) return { kind: 'search', scope: second };
  if (isMediaType(first) && (parts.length === 2 || parts.length === 3)) {
    const id = parseId(second);
    if (id !== null) {
      if (parts.length === 2) return { kind: 'details', type: first, id };
      if (third === 'credits' || third === 'videos') return { kind: third, type: first, id };
      if (third === 'recommendations' || third === 'similar') return { kind: 'related', type: first, id, as: third };
    }
  }
  throw new HttpError(errors.notFound);
}

export const MAX_PAGE = 500;
export const MAX_QUERY_LENGTH = 500;

/** TMDB's page rule: an integer from 1 to 500, default 1. */
export function parsePage(raw: string | null): number {
  if (raw === null) return 1;
  if (!/^\d{1,3}$/.test(raw)) throw new HttpError(errors.invalidPage);
  const page = Number(raw);
  if (page < 1 || page > MAX_PAGE) throw new HttpError(errors.invalidPage);
  return page;
}

/** An absent query is a client bug (422); an empty one is a search for nothing (200, no results). */
export function parseQuery(raw: string | null): string {
  if (raw === null) throw new HttpError(errors.invalidParameters);
  if (raw.length > MAX_QUERY_LENGTH) throw new HttpError(errors.invalidParameters);
  return raw;
}

/** with_genres: ids joined by ',' (all of them) or '|' (any of them), as TMDB reads it. */
export function parseGenreFilter(raw: string | null): { ids: number[]; mode: 'all' | 'any' } | null {
  if (raw === null || raw.trim() === '') return null;
  const mode = raw.includes('|') ? 'any' : 'all';
  const parts = raw.split(mode === 'any' ? '|' : ',').map((part) => part.trim());
  if (parts.some((part) => !/^\d{1,6}$/.test(part))) throw new HttpError(errors.invalidInput);
  return { ids: parts.map(Number), mode };
}

/** Route paths list titles; details paths do not take a page. */
export const isPaged = (route: Route): boolean =>
  route.kind === 'popular' || route.kind === 'upcoming' || route.kind === 'discover' || route.kind === 'search' || route.kind === 'related';

/** Rejects bad parameters before any work (or any upstream call in proxy mode). */
export function validateParams(route: Route, params: URLSearchParams): void {
  if (isPaged(route)) parsePage(params.get('page'));
  if (route.kind === 'search') parseQuery(params.get('query'));
  if (route.kind === 'discover') parseGenreFilter(params.get('with_genres'));
}
