// TMDB's genre lists (ids and names as TMDB publishes them), plus search aliases.
import { fold } from './fold';

export type MediaType = 'movie' | 'tv';

export interface Genre {
  id: number;
  name: string;
}

export const movieGenres: readonly Genre[] = [
  { id: 28, name: 'Action' },
  { id: 12, name: 'Adventure' },
  { id: 16, name: 'Animation' },
  { id: 35, name: 'Comedy' },
  { id: 80, name: 'Crime' },
  { id: 99, name: 'Documentary' },
  { id: 18, name: 'Drama' },
  { id: 10751, name: 'Family' },
  { id: 14, name: 'Fantasy' },
  { id: 36, name: 'History' },
  { id: 27, name: 'Horror' },
  { id: 10402, name: 'Music' },
  { id: 9648, name: 'Mystery' },
  { id: 10749, name: 'Romance' },
  { id: 878, name: 'Science Fiction' },
  { id: 53, name: 'Thriller' },
  { id: 10752, name: 'War' },
  { id: 37, name: 'Western' },
];

export const tvGenres: readonly Genre[] = [
  { id: 10759, name: 'Action & Adventure' },
  { id: 16, name: 'Animation' },
  { id: 35, name: 'Comedy' },
  { id: 80, name: 'Crime' },
  { id: 99, name: 'Documentary' },
  { id: 18, name: 'Drama' },
  { id: 10751, name: 'Family' },
  { id: 10762, name: 'Kids' },
  { id: 9648, name: 'Mystery' },
  { id: 10763, name: 'News' },
  { id: 10764, name: 'Reality' },
  { id: 10765, name: 'Sci-Fi & Fantasy' },
  { id: 10766, name: 'Soap' },
  { id: 10767, name: 'Talk' },
  { id: 10768, name: 'War & Politics' },
  { id: 37, name: 'Western' },
];

export const genresOf = (type: MediaType): readonly Genre[] => (type === 'movie' ? movieGenres : tvGenres);

/**
 * Rows the product shows (docs/product.md#genre-rows) get extra weight so each has plenty of titles even in a
 * small catalogue; the rest still appear.
 */
export const featuredGenreIds: Record<MediaType, readonly number[]> = {
  movie: [35, 28, 27, 16, 12, 80, 18],
  tv: [35, 9648, 18, 10764, 99],
};

/** Words members type for a genre that are not its exact TMDB name. Keys are folded (see search/fold). */
const aliases: Record<MediaType, Record<string, readonly number[]>> = {
  movie: {
    'sci-fi': [878],
    'sci fi': [878],
    scifi: [878],
    'science-fiction': [878],
    'action & adventure': [28, 12],
    kids: [10751, 16],
    'sci-fi & fantasy': [878, 14],
    'war & politics': [10752],
    cartoon: [16],
    animated: [16],
    romcom: [10749, 35],
    documentaries: [99],
    comedies: [35],
    thrillers: [53],
    westerns: [37],
  },
  tv: {
    'sci-fi': [10765],
    'sci fi': [10765],
    scifi: [10765],
    'science fiction': [10765],
    fantasy: [10765],
    action: [10759],
    adventure: [10759],
    war: [10768],
    politics: [10768],
    family: [10751, 10762],
    music: [],
    documentaries: [99],
    comedies: [35],
    'reality tv': [10764],
    'reality shows': [10764],
    soaps: [10766],
    'talk show': [10767],
    'talk shows': [10767],
    westerns: [37],
  },
};

/** Genre ids a search query names, for one media type (empty when it names none). */
const foldedNames: Record<MediaType, ReadonlyMap<string, number>> = {
  movie: new Map(movieGenres.map((genre) => [fold(genre.name), genre.id])),
  tv: new Map(tvGenres.map((genre) => [fold(genre.name), genre.id])),
};

export function genresNamedBy(type: MediaType, foldedQuery: string): readonly number[] {
  const exact = foldedNames[type].get(foldedQuery);
  if (exact !== undefined) return [exact];
  return aliases[type][foldedQuery] ?? [];
}
