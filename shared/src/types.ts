// The catalogue's shapes, as TMDB v3 sends them. Every team reads these.

/** 'movie' and 'tv' as they appear in catalogue paths. */
export type MediaType = 'movie' | 'tv';

export interface Genre {
  id: number;
  name: string;
}

/** A title as it appears in lists (popular, discover, search, similar). */
export interface TitleSummary {
  id: number;
  /** Movies carry `title`, series `name`. */
  title?: string;
  name?: string;
  original_title?: string;
  original_name?: string;
  poster_path: string | null;
  backdrop_path: string | null;
  genre_ids: number[];
  overview: string;
  vote_average: number;
  vote_count?: number;
  popularity?: number;
  release_date?: string;
  first_air_date?: string;
  /** Present on search/multi results. */
  media_type?: MediaType | 'person';
}

/** Full details of a movie (movie/{id}) or a series (tv/{id}). */
export interface TitleDetails extends Omit<TitleSummary, 'genre_ids'> {
  genres: Genre[];
  genre_ids?: number[];
  runtime?: number | null;
  episode_run_time?: number[];
  number_of_seasons?: number;
  number_of_episodes?: number;
  tagline?: string;
  status?: string;
  /** The embedded catalogue adds the certification it knows (e.g. 'R', 'PG-13', 'TV-MA'). */
  certification?: string | null;
}

export interface Page<T> {
  page: number;
  results: T[];
  total_pages: number;
  total_results: number;
}

export interface Person {
  id: number;
  name: string;
  profile_path?: string | null;
}

export interface CastMember extends Person {
  character?: string;
  order?: number;
}

export interface CrewMember extends Person {
  job: string;
  department?: string;
}

export interface Credits {
  id: number;
  cast: CastMember[];
  crew: CrewMember[];
}

export interface Video {
  id: string;
  key: string;
  name: string;
  /** 'YouTube' from TMDB; the embedded catalogue uses 'Netnet' for its self-hosted clips. */
  site: string;
  type: string;
  /** Self-hosted clips carry their URL (embedded catalogue only). */
  url?: string;
}

export interface VideoList {
  id: number;
  results: Video[];
}

export interface GenreList {
  genres: Genre[];
}

/** TMDB's error body, also sent by the embedded catalogue. */
export interface CatalogueErrorBody {
  success: false;
  status_code: number;
  status_message: string;
}

/** A saved title ('My list'), stored per member and per media type (docs/product.md#local-database). */
export interface SavedTitle {
  id: number;
  type: MediaType;
  name: string;
  poster: string | null;
  /** Milliseconds since the epoch; the list shows newest first. */
  addedAt: number;
}

/** The display name of a title, whatever its type. */
export const titleName = (t: Pick<TitleSummary, 'title' | 'name'>): string => t.title ?? t.name ?? '';

/** A list entry's media type when the call does not say it (movies have `title`, series `name`). */
export const mediaTypeOf = (t: Pick<TitleSummary, 'media_type' | 'title'>, fallback?: MediaType): MediaType =>
  t.media_type === 'movie' || t.media_type === 'tv' ? t.media_type : (fallback ?? (t.title !== undefined ? 'movie' : 'tv'));
