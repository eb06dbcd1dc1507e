// TMDB v3 JSON shapes for generated titles. List pages are assembled from memoised per-title
// JSON fragments: a page of 20 is a string join, not 20 object serialisations.
import { genresOf, type Genre } from '../data/genres';
import { isoDate, type Catalogue, type TitleRecord } from '../data/model';
import { overviewOf, taglineOf } from '../data/overview';
import { int, streamFor } from '../data/random';

export const PAGE_SIZE = 20;

/**
 * A list entry's JSON, written by hand: lists are the hot path, and a template is several times
 * faster than building an object for JSON.stringify. Every string goes through JSON.stringify.
 */
export function summaryJson(catalogue: Catalogue, t: TitleRecord): string {
  if (t.summaryJson !== undefined) return t.summaryJson;
  const str = JSON.stringify;
  const name = str(t.name);
  const date = isoDate(t.day);
  const common =
    `"adult":false,"backdrop_path":${str(t.backdropPath)},"genre_ids":[${t.genreIds.join(',')}],"id":${t.id},` +
    `"media_type":"${t.type}","original_language":"en",` +
    `"overview":${str(overviewOf(catalogue.seed, t))},"popularity":${t.popularity},"poster_path":${str(t.posterPath)},` +
    `"vote_average":${t.voteAverage},"vote_count":${t.voteCount}`;
  // Lists on TMDB only say media_type on multi/recommendations; always saying it is harmless
  // and lets one memoised fragment serve every list.
  t.summaryJson =
    t.type === 'movie'
      ? `{${common},"original_title":${name},"release_date":"${date}","title":${name},"video":false}`
      : `{${common},"first_air_date":"${date}","name":${name},"origin_country":["US"],"original_name":${name}}`;
  return t.summaryJson;
}

/** One page of a list, TMDB-style; pages past the end are empty, as on TMDB. */
export function pageJson(catalogue: Catalogue, titles: readonly TitleRecord[], page: number, extra = ''): string {
  const start = (page - 1) * PAGE_SIZE;
  const slice = titles.slice(start, start + PAGE_SIZE);
  const totalPages = Math.max(1, Math.ceil(titles.length / PAGE_SIZE));
  return (
    `{${extra}"page":${page},"results":[${slice.map((t) => summaryJson(catalogue, t)).join(',')}],` +
    `"total_pages":${totalPages},"total_results":${titles.length}}`
  );
}

const genreObjects = (t: TitleRecord): Genre[] => {
  const known = genresOf(t.type);
  return t.genreIds.map((id) => known.find((g) => g.id === id)).filter((g): g is Genre => g !== undefined);
};

export function detailsOf(catalogue: Catalogue, t: TitleRecord): Record<string, unknown> {
  const random = streamFor(catalogue.seed, t.type, t.id, 'details');
  const released = t.day <= catalogue.today;
  const base = {
    adult: false,
    backdrop_path: t.backdropPath,
    genres: genreObjects(t),
    homepage: '',
    id: t.id,
    origin_country: ['US'],
    original_language: 'en',
    overview: overviewOf(catalogue.seed, t),
    popularity: t.popularity,
    poster_path: t.posterPath,
    production_companies: [],
    production_countries: [{ iso_3166_1: 'US', name: 'United States of America' }],
    spoken_languages: [{ english_name: 'English', iso_639_1: 'en', name: 'English' }],
    tagline: taglineOf(catalogue.seed, t),
    vote_average: t.voteAverage,
    vote_count: t.voteCount,
    // Not a TMDB details field: the embedded catalogue says the certification it invented.
    certification: t.certification,
  };
  if (t.type === 'movie') {
    const budget = int(random, 2, 180) * 1_000_000;
    return {
      ...base,
      belongs_to_collection: null,
      budget,
      imdb_id: null,
      original_title: t.name,
      release_date: isoDate(t.day),
      revenue: released ? Math.round(budget * (0.3 + random() * 4)) : 0,
      runtime: t.runtime,
      status: released ? 'Released' : 'Post Production',
      title: t.name,
      video: false,
    };
  }
  const seasons = released ? int(random, 1, 8) : 1;
  const episodesPerSeason = int(random, 6, 13);
  const ended = released && random() < 0.4;
  const seasonGap = 365;
  return {
    ...base,
    created_by: [],
    episode_run_time: [t.runtime],
    first_air_date: isoDate(t.day),
    in_production: !ended,
    languages: ['en'],
    last_air_date: released ? isoDate(Math.min(catalogue.today, t.day + (seasons - 1) * seasonGap + 7 * (episodesPerSeason - 1))) : null,
    name: t.name,
    networks: [{ id: 1, logo_path: null, name: 'Netnet', origin_country: 'US' }],
    number_of_episodes: seasons * episodesPerSeason,
    number_of_seasons: seasons,
    original_name: t.name,
    seasons: Array.from({ length: seasons }, (_, i) => ({
      air_date: isoDate(t.day + i * seasonGap),
      episode_count: episodesPerSeason,
      id: t.id * 100 + i + 1,
      name: `Season ${i + 1}`,
      overview: '',
      poster_path: t.posterPath,
      season_number: i + 1,
      vote_average: t.voteAverage,
    })),
    status: ended ? 'Ended' : released ? 'Returning Series' : 'In Production',
    type: 'Scripted',
  };
}
