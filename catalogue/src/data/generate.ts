// Builds the whole catalogue from a seed. Same (size, seed, today) → same catalogue.
import { featuredGenreIds, genresOf, type MediaType } from './genres';
import { chance, int, mulberry32, pick, type Random } from './random';
import { inventName } from './titles';
import { byPopularityDesc, Catalogue, TitleRecord } from './model';

export interface GenerateOptions {
  size: number;
  seed: number;
  /** Days since the epoch. */
  today: number;
}

/** The landing page features this movie (docs/product.md#landing-page). */
export const FEATURED_MOVIE_ID = 604;

/** The most popular titles always have pictures: the hero and first rows show them. */
const ALWAYS_ILLUSTRATED = 40;

export const MAX_SIZE = 1_000_000;

export function generateCatalogue({ size, seed, today }: GenerateOptions): Catalogue {
  if (!Number.isInteger(size) || size < 1 || size > MAX_SIZE) {
    throw new Error(`Catalogue size must be an integer from 1 to ${MAX_SIZE}, got ${size}`);
  }
  const random = mulberry32(seed);
  const movieCount = Math.max(1, Math.ceil(size * 0.55));
  const movies = makeTitles(random, 'movie', movieCount, seed, today);
  const series = makeTitles(random, 'tv', size - movieCount, seed, today);
  ensureFeaturedMovie(movies, today);

  const byPopularity = { movie: [...movies].sort(byPopularityDesc), tv: [...series].sort(byPopularityDesc) };
  for (const list of Object.values(byPopularity)) list.slice(0, ALWAYS_ILLUSTRATED).forEach(illustrate);

  return new Catalogue(
    seed,
    today,
    size,
    byPopularity,
    { movie: indexById(movies), tv: indexById(series) },
    movies.filter((t) => t.day > today).sort((a, b) => a.day - b.day || byPopularityDesc(a, b)),
  );
}

function makeTitles(random: Random, type: MediaType, count: number, seed: number, today: number): TitleRecord[] {
  const genres = genresOf(type).map((genre) => genre.id);
  const featured = featuredGenreIds[type];
  const titles: TitleRecord[] = new Array(count);
  let id = type === 'movie' ? 2 : 1;
  for (let i = 0; i < count; i++) {
    id += int(random, 1, type === 'movie' ? 7 : 9);
    // The first titles walk the genre list so even a tiny catalogue covers every genre; after
    // that the rows the product shows get extra weight.
    const main = i < genres.length ? genres[i]! : chance(random, 0.6) ? pick(random, featured) : pick(random, genres);
    const genreIds = [main];
    const extra = int(random, 0, 2);
    for (let k = 0; k < extra; k++) {
      const other = pick(random, genres);
      if (!genreIds.includes(other)) genreIds.push(other);
    }
    const future = chance(random, type === 'movie' ? 0.05 : 0.02);
    // Recent years are denser, as in any real catalogue.
    const day = future ? today + int(random, 1, 270) : today - Math.floor(Math.pow(random(), 2.2) * 365 * 50) - 1;
    const popularity = Math.round((0.6 + 2500 * Math.pow(random(), 9) + 40 * random()) * 1000) / 1000;
    const voteAverage = future ? 0 : Math.round((3.5 + 5.6 * (random() + random() + random()) / 3) * 10) / 10;
    const voteCount = future ? 0 : Math.round(5 + popularity * int(random, 3, 40));
    titles[i] = new TitleRecord(
      seed,
      type,
      id,
      inventName(random, type, main),
      genreIds,
      day,
      popularity,
      voteAverage,
      voteCount,
      !chance(random, 0.07),
      !chance(random, 0.12),
      future || chance(random, 0.66),
      certificationFor(random, type, genreIds),
      runtimeFor(random, type, main),
    );
  }
  return titles;
}

/** Keeps id 604 a movie whatever the size: the closest id below it is renamed, order intact. */
function ensureFeaturedMovie(movies: TitleRecord[], today: number): void {
  let featured = movies.find((t) => t.id === FEATURED_MOVIE_ID);
  if (!featured) {
    const below = movies.filter((t) => t.id < FEATURED_MOVIE_ID);
    featured = below[below.length - 1] ?? movies[0]!;
    featured.id = FEATURED_MOVIE_ID;
  }
  featured.hasVideo = true;
  // The landing page shows it as released and rated.
  if (featured.day > today) {
    featured.day = today - 400;
    featured.voteAverage = 7.8;
    featured.voteCount = 4321;
  }
  illustrate(featured);
}

function illustrate(title: TitleRecord): void {
  title.hasPoster = true;
  title.hasBackdrop = true;
}

function certificationFor(random: Random, type: MediaType, genreIds: number[]): string {
  const has = (...ids: number[]) => ids.some((id) => genreIds.includes(id));
  if (type === 'tv') {
    if (has(10762, 16, 10751)) return 'TV-PG';
    if (has(27, 80)) return chance(random, 0.7) ? 'TV-MA' : 'TV-14';
    return pick(random, ['TV-PG', 'TV-14', 'TV-14', 'TV-MA']);
  }
  if (has(16, 10751)) return chance(random, 0.5) ? 'G' : 'PG';
  if (has(27, 53, 10752, 80)) return chance(random, 0.65) ? 'R' : 'PG-13';
  return pick(random, ['PG', 'PG-13', 'PG-13', 'R']);
}

function runtimeFor(random: Random, type: MediaType, main: number): number {
  if (type === 'tv') return [35, 16, 10762].includes(main) ? int(random, 20, 30) : int(random, 38, 62);
  if (main === 16) return int(random, 74, 108);
  if (main === 99) return int(random, 68, 124);
  return int(random, 84, 172);
}

const indexById = (titles: TitleRecord[]) => new Map(titles.map((t) => [t.id, t] as const));
