// Answers /3/ routes from the generated catalogue. Each answer comes with a cache key naming
// exactly what it depends on, so the server can memoise the serialised body.
import { HttpError, errors } from '../errors';
import { Lru } from '../lru';
import { creditsOf } from '../data/credits';
import { genresOf, type MediaType } from '../data/genres';
import { isoDate, type Catalogue, type TitleRecord } from '../data/model';
import { relatedTo } from '../data/related';
import { searchTitles } from '../data/search';
import { videosOf } from '../data/videos';
import { parseGenreFilter, parsePage, parseQuery, type Route } from './match';
import { detailsOf, pageJson } from './shapes';

export interface Answer {
  /** Everything the body depends on; equal keys → identical bodies. */
  key: string;
  build: () => string;
}

export interface AnswerContext {
  params: URLSearchParams;
  /** The service's public origin, for absolute clip URLs. */
  origin: string;
}

export function answer(catalogue: Catalogue, route: Route, { params, origin }: AnswerContext): Answer {
  switch (route.kind) {
    case 'popular': {
      const page = parsePage(params.get('page'));
      return { key: `popular/${route.type}/${page}`, build: () => pageJson(catalogue, catalogue.byPopularity[route.type], page) };
    }
    case 'upcoming': {
      const page = parsePage(params.get('page'));
      const dates = `"dates":{"maximum":"${isoDate(catalogue.today + 270)}","minimum":"${isoDate(catalogue.today + 1)}"},`;
      return { key: `upcoming/${page}`, build: () => pageJson(catalogue, catalogue.upcoming, page, dates) };
    }
    case 'discover': {
      const page = parsePage(params.get('page'));
      const filter = parseGenreFilter(params.get('with_genres'));
      const filterKey = filter ? `${filter.mode}:${filter.ids.join(',')}` : '';
      return {
        key: `discover/${route.type}/${filterKey}/${page}`,
        build: () => pageJson(catalogue, discover(catalogue, route.type, filter), page),
      };
    }
    case 'genres':
      return { key: `genres/${route.type}`, build: () => JSON.stringify({ genres: genresOf(route.type) }) };
    case 'search': {
      const page = parsePage(params.get('page'));
      const query = parseQuery(params.get('query'));
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
      const page = parsePage(params.get('page'));
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

/** Titles with the genres asked for, most popular first (TMDB's default sort). */
function discover(catalogue: Catalogue, type: MediaType, filter: ReturnType<typeof parseGenreFilter>): TitleRecord[] {
  if (!filter) return catalogue.byPopularity[type];
  if (filter.ids.length === 1) return catalogue.byGenre(type).get(filter.ids[0]!) ?? [];
  let memo = discoverMemo.get(catalogue);
  // Combinations are many: keep a bounded number of them.
  if (!memo) {
    memo = new Lru<string, TitleRecord[]>({ maxEntries: 200, maxBytes: 32 * 1024 * 1024, sizeOf: (l) => 8 * l.length + 64 });
    discoverMemo.set(catalogue, memo);
  }
  const key = `${type}/${filter.mode}/${filter.ids.join(',')}`;
  let titles = memo.get(key);
  if (!titles) {
    const wanted = filter.ids;
    titles = catalogue.byPopularity[type].filter((t) =>
      filter.mode === 'all' ? wanted.every((id) => t.genreIds.includes(id)) : wanted.some((id) => t.genreIds.includes(id)),
    );
    memo.set(key, titles);
  }
  return titles;
}
