// Catalogue bodies in the TMDB v3 shapes.
import type { Page, TitleSummary } from '@netnet/shared';

/** A title in a list, as TMDB sends it; give the fields the test is about. */
export function summary(title: Partial<TitleSummary>): TitleSummary {
  return {
    id: 1,
    poster_path: '/poster.jpg',
    backdrop_path: '/backdrop.jpg',
    genre_ids: [],
    overview: '',
    vote_average: 7,
    ...title,
  };
}

/** A one-page list of titles, as TMDB sends it. */
export function page(results: Partial<TitleSummary>[]): Page<TitleSummary> {
  return { page: 1, results: results.map(summary), total_pages: 1, total_results: results.length };
}
