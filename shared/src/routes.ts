import type { MediaType } from './types';

// Route paths every team uses to send a member somewhere: no remote imports another.
export const routes = {
  landing: '/',
  login: (email?: string) => (email ? `/login?email=${encodeURIComponent(email)}` : '/login'),
  browse: '/browse',
  movies: '/movies',
  series: '/series',
  search: (query?: string) => (query ? `/search?q=${encodeURIComponent(query)}` : '/search'),
  myList: '/my-list',
  comingSoon: '/coming-soon',
  downloads: '/downloads',
  movie: (id: number | string) => `/title/${id}`,
  tv: (id: number | string) => `/tv/${id}`,
  /** A title's detail page by type: movies at /title/{id}, series at /tv/{id} (DESIGN §8). */
  title: (type: MediaType, id: number | string) => (type === 'movie' ? `/title/${id}` : `/tv/${id}`),
} as const;

/** The three screens that carry the home header (SPEC §2). */
export const homeHeaderPaths: readonly string[] = [routes.browse, routes.movies, routes.series];

/** Catalogue ids in routes are positive integers; anything else is not a title. */
export function parseTitleId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
