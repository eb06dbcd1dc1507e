// The /3/ paths the service answers, the query parameters each one takes, and the bounds TMDB (or
// this service, to keep every request's work small) sets on them. Embedded and proxy modes share
// it: the proxy never forwards a path the product does not use, nor a parameter its route does not
// take, and every cache key is built from what this file returns — never from the raw URL.
import { parseTitleId } from '@netnet/shared/ids';
import { HttpError, errors } from '../errors';
import { genresOf, type MediaType } from '../data/genres';

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
    const id = parseTitleId(second);
    if (id !== null) {
      if (parts.length === 2) return { kind: 'details', type: first, id };
      if (third === 'credits' || third === 'videos') return { kind: third, type: first, id };
      if (third === 'recommendations' || third === 'similar') return { kind: 'related', type: first, id, as: third };
    }
  }
  throw new HttpError(errors.notFound);
}

/** The route's path in one spelling (no trailing slash), for cache keys and the upstream call. */
export function routePath(route: Route): string {
  switch (route.kind) {
    case 'popular':
      return `${route.type}/popular`;
    case 'upcoming':
      return 'movie/upcoming';
    case 'discover':
      return `discover/${route.type}`;
    case 'genres':
      return `genre/${route.type}/list`;
    case 'search':
      return `search/${route.scope}`;
    case 'details':
      return `${route.type}/${route.id}`;
    case 'credits':
    case 'videos':
      return `${route.type}/${route.id}/${route.kind}`;
    case 'related':
      return `${route.type}/${route.id}/${route.as}`;
  }
}

export const MAX_PAGE = 500;
export const MAX_QUERY_LENGTH = 500;
/** More genres than this in one filter is no browsing the product offers, only work. */
export const MAX_GENRES = 10;
/** Ten five-digit ids and their separators fit with room for repeats and spaces. */
const MAX_GENRES_LENGTH = 200;

export interface GenreFilter {
  /** Unique, ascending. */
  ids: number[];
  /** ',' = all of them, '|' = any of them; one id is 'all'. */
  mode: 'all' | 'any';
}

/** A request's parameters, checked and in one spelling. */
export interface Query {
  page: number;
  /** search only */
  query: string;
  /** discover only; null = no filter */
  genres: GenreFilter | null;
  /**
   * The route's parameters as the proxy forwards them: only those the route takes, first value
   * of each, canonical form, sorted by name.
   */
  forwarded: URLSearchParams;
}

/** Each route's parameters, in name order (so `forwarded` comes out sorted). Others are dropped. */
const PARAMETERS: Record<Route['kind'], readonly string[]> = {
  popular: ['language', 'page', 'region'],
  upcoming: ['language', 'page', 'region'],
  discover: ['language', 'page', 'with_genres'],
  genres: ['language'],
  search: ['include_adult', 'language', 'page', 'query'],
  details: ['language'],
  credits: ['language'],
  videos: ['language'],
  related: ['language', 'page'],
};

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

const knownGenres: Record<MediaType, ReadonlySet<number>> = {
  movie: new Set(genresOf('movie').map((genre) => genre.id)),
  tv: new Set(genresOf('tv').map((genre) => genre.id)),
};

/**
 * with_genres: ids joined by ',' (all of them) or '|' (any of them), as TMDB reads it; at most ten
 * distinct ids, each a genre of `type` (TMDB answers an unknown one with nothing; here it is a 422,
 * so a long list of them is refused before any work).
 */
export function parseGenreFilter(raw: string | null, type: MediaType): GenreFilter | null {
  if (raw === null || raw.trim() === '') return null;
  if (raw.length > MAX_GENRES_LENGTH) throw new HttpError(errors.invalidInput);
  const mode = raw.includes('|') ? 'any' : 'all';
  const ids = new Set<number>();
  for (const part of raw.split(mode === 'any' ? '|' : ',')) {
    const id = part.trim();
    if (!/^\d{1,6}$/.test(id) || !knownGenres[type].has(Number(id))) throw new HttpError(errors.invalidInput);
    ids.add(Number(id));
  }
  if (ids.size > MAX_GENRES) throw new HttpError(errors.invalidInput);
  return { ids: [...ids].sort((a, b) => a - b), mode: ids.size === 1 ? 'all' : mode };
}

/** Values passed through to TMDB as they are: each one bounded so it cannot grow a cache key. */
const FORMATS: Record<string, RegExp> = {
  language: /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/,
  region: /^[a-zA-Z]{2}$/,
  include_adult: /^(true|false)$/,
};

/** Reads and checks the route's parameters; everything else in the URL is ignored. */
export function readQuery(route: Route, params: URLSearchParams): Query {
  const query: Query = { page: 1, query: '', genres: null, forwarded: new URLSearchParams() };
  for (const name of PARAMETERS[route.kind]) {
    const raw = params.get(name);
    switch (name) {
      case 'page':
        query.page = parsePage(raw);
        if (raw !== null) query.forwarded.append(name, String(query.page));
        break;
      case 'query':
        query.query = parseQuery(raw);
        query.forwarded.append(name, query.query);
        break;
      case 'with_genres':
        query.genres = route.kind === 'discover' ? parseGenreFilter(raw, route.type) : null;
        if (query.genres) query.forwarded.append(name, query.genres.ids.join(query.genres.mode === 'any' ? '|' : ','));
        break;
      default:
        if (raw === null) break;
        if (!FORMATS[name]!.test(raw)) throw new HttpError(errors.invalidParameters);
        query.forwarded.append(name, raw);
    }
  }
  return query;
}
