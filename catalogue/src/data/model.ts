// What the generated catalogue keeps in memory. Overviews, credits, videos and artwork names are
// not stored: they are derived on demand from (seed, type, id), and the secondary indexes are
// built on first use — which keeps a 100k start fast.
import { artworkPath } from './artwork';
import { genresOf, type MediaType } from './genres';

export class TitleRecord {
  /** JSON of the list entry, memoised on first use (lists are served far more often than built). */
  summaryJson: string | undefined = undefined;
  /** fold(name), set when the search index is built. */
  folded: string | undefined = undefined;

  constructor(
    readonly seed: number,
    readonly type: MediaType,
    public id: number,
    readonly name: string,
    /** Main genre first. */
    readonly genreIds: number[],
    /** Release (movie) or first air (series) date, as days since 1970-01-01 UTC. */
    public day: number,
    readonly popularity: number,
    public voteAverage: number,
    public voteCount: number,
    public hasPoster: boolean,
    public hasBackdrop: boolean,
    public hasVideo: boolean,
    readonly certification: string,
    /** Minutes: the film's length, or a series episode's. */
    readonly runtime: number,
  ) {}

  get posterPath(): string | null {
    return this.hasPoster ? artworkPath(this.seed, this.type, this.id, 'poster', this.name) : null;
  }

  get backdropPath(): string | null {
    return this.hasBackdrop ? artworkPath(this.seed, this.type, this.id, 'backdrop', this.name) : null;
  }
}

// Ties break on id so the order never depends on the sort implementation.
export const byPopularityDesc = (a: TitleRecord, b: TitleRecord): number => b.popularity - a.popularity || a.id - b.id;

export class Catalogue {
  private all: TitleRecord[] | undefined;
  private readonly genreIndexes: Partial<Record<MediaType, Map<number, TitleRecord[]>>> = {};
  private readonly genreMaskIndexes: Partial<Record<MediaType, GenreMasks>> = {};

  constructor(
    readonly seed: number,
    /** "Today" as days since the epoch (injectable, so upcoming is testable). */
    readonly today: number,
    readonly size: number,
    /** Titles of each type, most popular first. */
    readonly byPopularity: Record<MediaType, TitleRecord[]>,
    readonly byId: Record<MediaType, Map<number, TitleRecord>>,
    /** Movies released after today, soonest first. */
    readonly upcoming: TitleRecord[],
  ) {}

  /** Movies and series together, most popular first (search/multi). */
  get allByPopularity(): TitleRecord[] {
    return (this.all ??= mergeByPopularity(this.byPopularity.movie, this.byPopularity.tv));
  }

  /** genre id → titles having it, most popular first. */
  byGenre(type: MediaType): Map<number, TitleRecord[]> {
    return (this.genreIndexes[type] ??= indexByGenre(this.byPopularity[type]));
  }

  /** Each title's genres as a bit set, in popularity order: a genre filter is one integer test a title. */
  genreMasks(type: MediaType): GenreMasks {
    return (this.genreMaskIndexes[type] ??= maskGenres(type, this.byPopularity[type]));
  }
}

export interface GenreMasks {
  /** genre id → its bit (a type has fewer than 32 genres). */
  bitOf: ReadonlyMap<number, number>;
  /** masks[i]: the genres of byPopularity[type][i]. */
  masks: Uint32Array;
}

function maskGenres(type: MediaType, popular: TitleRecord[]): GenreMasks {
  const bitOf = new Map(genresOf(type).map((genre, i) => [genre.id, 2 ** i]));
  const masks = new Uint32Array(popular.length);
  popular.forEach((title, i) => {
    for (const id of title.genreIds) masks[i]! |= bitOf.get(id) ?? 0;
  });
  return { bitOf, masks };
}

export function mergeByPopularity(a: TitleRecord[], b: TitleRecord[]): TitleRecord[] {
  const merged: TitleRecord[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) merged[k++] = byPopularityDesc(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) merged[k++] = a[i++]!;
  while (j < b.length) merged[k++] = b[j++]!;
  return merged;
}

function indexByGenre(popular: TitleRecord[]): Map<number, TitleRecord[]> {
  const index = new Map<number, TitleRecord[]>();
  for (const title of popular) {
    for (const genreId of title.genreIds) {
      const list = index.get(genreId);
      if (list) list.push(title);
      else index.set(genreId, [title]);
    }
  }
  return index;
}

const DAY_MS = 86_400_000;

export const dayOf = (date: Date): number => Math.floor(date.getTime() / DAY_MS);

export const isoDate = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Accepts a Date or 'YYYY-MM-DD'; throws on anything else so a bad CATALOGUE_TODAY fails loudly. */
export function parseToday(today: Date | string | undefined): number {
  if (today === undefined) return dayOf(new Date());
  const date = typeof today === 'string' ? new Date(`${today}T00:00:00Z`) : today;
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid "today": ${String(today)}`);
  return dayOf(date);
}
