// The catalogue calls the product makes (docs/product.md#catalogue-calls), each typed with the body it answers, so
// `useCatalogue(catalogue.popular('movie'))` knows it gets a Page<TitleSummary>.
import { getRuntimeConfig } from '../config';
import type { Credits, GenreList, MediaType, Page, TitleDetails, TitleSummary, VideoList } from '../types';

/** A GET under /3/ with its query. `T` is the response body's type. */
export interface CatalogueRequest<T> {
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  /** Type-only marker: never set at run time. */
  readonly __response?: T;
}

export type SearchScope = MediaType | 'multi';

function request<T>(path: string, params: Record<string, string | number> = {}): CatalogueRequest<T> {
  return { path, params: Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)])) };
}

/** Details, credits and videos are asked for in en-US. */
const EN_US = { language: 'en-US' } as const;

export const catalogue = {
  popular: (type: MediaType, page = 1) => request<Page<TitleSummary>>(`${type}/popular`, { page }),
  /** One genre's titles, most popular first (the browse rows). */
  discover: (type: MediaType, genreId: number, page = 1) =>
    request<Page<TitleSummary>>(`discover/${type}`, { with_genres: genreId, page }),
  genres: (type: MediaType) => request<GenreList>(`genre/${type}/list`),
  /** Movies and series by default (the search box promises both); page 1 only. */
  search: (query: string, scope: SearchScope = 'multi') => request<Page<TitleSummary>>(`search/${scope}`, { query, page: 1 }),
  details: (type: MediaType, id: number) => request<TitleDetails>(`${type}/${id}`, EN_US),
  credits: (type: MediaType, id: number) => request<Credits>(`${type}/${id}/credits`, EN_US),
  videos: (type: MediaType, id: number) => request<VideoList>(`${type}/${id}/videos`, EN_US),
  /** 'More like this': recommendations for a movie, similar for a series. */
  similar: (type: MediaType, id: number, page = 1) =>
    request<Page<TitleSummary>>(type === 'movie' ? `movie/${id}/recommendations` : `tv/${id}/similar`, { page }),
  upcoming: (page = 1) => request<Page<TitleSummary>>('movie/upcoming', { page }),
} as const;

/** The absolute URL of a request; also the key of the response cache. */
export function catalogueUrl(req: CatalogueRequest<unknown>, baseUrl: string = getRuntimeConfig().catalogueUrl): string {
  const query = new URLSearchParams(req.params).toString();
  return `${baseUrl.replace(/\/+$/, '')}/3/${req.path}${query ? `?${query}` : ''}`;
}
