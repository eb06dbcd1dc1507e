import type { MediaType } from '@netnet/shared';

// The genre rows of each screen (docs/product.md#genre-rows; the Movies page's fifth row is
// genre 18 and says so — "Drama movies").

/** A row on a browse screen: one genre of one media type, under its label. */
export interface RowDefinition {
  id: number;
  title: string;
  type: MediaType;
}

/** Home mixes movies and series, so each label says which. */
export const homeRows: readonly RowDefinition[] = [
  { id: 35, title: 'Comedy movies', type: 'movie' },
  { id: 9648, title: 'Mystery series', type: 'tv' },
  { id: 28, title: 'Action movies', type: 'movie' },
  { id: 18, title: 'Drama series', type: 'tv' },
  { id: 27, title: 'Horror movies', type: 'movie' },
];

export const movieRows: readonly RowDefinition[] = [
  { id: 16, title: 'Animation', type: 'movie' },
  { id: 12, title: 'Adventure', type: 'movie' },
  { id: 80, title: 'Crime', type: 'movie' },
  { id: 35, title: 'Comedy', type: 'movie' },
  { id: 18, title: 'Drama movies', type: 'movie' },
];

export const seriesRows: readonly RowDefinition[] = [
  { id: 35, title: 'Comedy', type: 'tv' },
  { id: 9648, title: 'Mystery', type: 'tv' },
  { id: 99, title: 'Documentary', type: 'tv' },
  { id: 18, title: 'Drama', type: 'tv' },
  { id: 10764, title: 'Reality shows', type: 'tv' },
];
