// Answers /3/ routes from the generated catalogue. Each answer comes with a cache key naming
// exactly what it depends on, so the server can memoise the serialised body.
import { HttpError, errors } from '../errors';
import { keyBytes, Lru } from '../lru';
import { creditsOf } from '../data/credits';
import { genresOf, type MediaType } from '../data/genres';
import { isoDate, type Catalogue, type TitleRecord } from '../data/model';
import { relatedTo } from '../data/related';
import { searchTitles } from '../data/search';
import { videosOf } from '../data/videos';
import type { GenreFilter, Query, Route } from './match';
import { detailsOf, pageJson } from './shapes';

export interface Answer {
  /** Everything the body depends on; equal keys → identical bodies. */
  key: string;
  build: () => string;
}

export interface AnswerContext {
  /** The route's parameters, checked (see readQuery). */
  query: Query;
  /** The service's public origin, for absolute clip URLs. */
  origin: string;
}

export function answer(catalogue: Catalogue, route: Route, { query: { page, query, genres }, origin }: AnswerContext): Answer {
  switch (route.kind) {
    case 'popular': {
      return { key: `popular/${route.type}/${page}`, build: () => pageJson(catalogue, catalogue.byPopularity[route.type], page) };
    }
    case 'upcoming': {
      const dates = `"dates":{"maximum":"${isoDate(catalogue.today + 270)}","minimum":"${isoDate(catalogue.today + 1)}"},`;
      return { key: `upcoming/${page}`, build: () => pageJson(catalogue, catalogue.upcoming, page, dates) };
    }
    case 'discover': {
      const filterKey = genres ? `${genres.mode}:${genres.ids.join(',')}` : '';
      return {
        key: `discover/${route.type}/${filterKey}/${page}`,
        build: () => pageJson(catalogue, discover(catalogue, route.type, genres), page),
      };
    }
    case 'genres':
      return { key: `genres/${route.type}`, build: () => JSON.stringify({ genres: genresOf(route.type) }) };
    case 'search': {
      return {
        key: `search/${route.scope}/${page}/${query}`,
        build: () => pageJson(catalogue, searchTitles(catalogue, route.scope, query), page),
      };
    }
    case 'details': {
      const title = find(catalogue, route.type, route.id);
      return { key: `details/${route.type}/${route.id}`, build: () => JSON.stringify(detailsOf(catalogue, title)) };
    }
    case 'credits': {
      const title = find(catalogue, route.type, route.id);
      return { key: `credits/${route.type}/${route.id}`, build: () => JSON.stringify(creditsOf(catalogue.seed, title)) };
    }
    case 'videos': {
      const title = find(catalogue, route.type, route.id);
      return { key: `videos/${route.type}/${route.id}/${origin}`, build: () => JSON.stringify(videosOf(title, origin)) };
    }
    case 'related': {
      const title = find(catalogue, route.type, route.id);
      return {
        key: `related/${route.type}/${route.id}/${page}`,
        build: () => pageJson(catalogue, relatedTo(catalogue, title), page),
      };
    }
  }
}

function find(catalogue: Catalogue, type: MediaType, id: number): TitleRecord {
  const title = catalogue.byId[type].get(id);
  if (!title) throw new HttpError(errors.notFound);
  return title;
}

const discoverMemo = new WeakMap<Catalogue, Lru<string, TitleRecord[]>>();

/**
 * Titles with the genres asked for, most popular first (TMDB's default sort). One pass over the
 * type's titles with one integer test each (their genre bit sets against the filter's), whatever
 * the number of genres; a filter holds at most ten known ones (see parseGenreFilter).
 */
function discover(catalogue: Catalogue, type: MediaType, filter: GenreFilter | null): TitleRecord[] {
  if (!filter) return catalogue.byPopularity[type];
  if (filter.ids.length === 1) return catalogue.byGenre(type).get(filter.ids[0]!) ?? [];
  let memo = discoverMemo.get(catalogue);
  // Combinations are many: keep a bounded number of them.
  if (!memo) {
    memo = new Lru<string, TitleRecord[]>({ maxEntries: 200, maxBytes: 32 * 1024 * 1024, sizeOf: (list, key) => 8 * list.length + keyBytes(key) });
    discoverMemo.set(catalogue, memo);
  }
  const key = `${type}/${filter.mode}/${filter.ids.join(',')}`;
  let titles = memo.get(key);
  if (!titles) {
    const { bitOf, masks } = catalogue.genreMasks(type);
    const wanted = filter.ids.reduce((set, id) => set | bitOf.get(id)!, 0);
    const popular = catalogue.byPopularity[type];
    titles = [];
    for (let i = 0; i < masks.length; i++) {
      const shared = masks[i]! & wanted;
      if (filter.mode === 'any' ? shared !== 0 : shared === wanted) titles.push(popular[i]!);
    }
    memo.set(key, titles);
  }
  return titles;
}
