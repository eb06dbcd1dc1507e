import { creditsOf } from './credits';
import { FEATURED_MOVIE_ID, generateCatalogue } from './generate';
import { featuredGenreIds, movieGenres, tvGenres } from './genres';
import { parseToday } from './model';
import { overviewOf } from './overview';
import { relatedTo } from './related';
import { summaryJson } from '../routes/shapes';

const today = parseToday('2025-06-01');
const catalogue = generateCatalogue({ size: 3000, seed: 42, today });

describe('generated catalogue', () => {
  it('has the size asked for, split into movies and series', () => {
    expect(catalogue.byPopularity.movie.length + catalogue.byPopularity.tv.length).toBe(3000);
    expect(catalogue.byPopularity.movie.length).toBeGreaterThan(1000);
    expect(catalogue.byPopularity.tv.length).toBeGreaterThan(1000);
  });

  it('covers every genre id, with at least 20 titles for each row the product shows', () => {
    for (const genre of movieGenres) expect(catalogue.byGenre('movie').get(genre.id)?.length ?? 0).toBeGreaterThan(0);
    for (const genre of tvGenres) expect(catalogue.byGenre('tv').get(genre.id)?.length ?? 0).toBeGreaterThan(0);
    for (const type of ['movie', 'tv'] as const) {
      for (const id of featuredGenreIds[type]) expect(catalogue.byGenre(type).get(id)!.length).toBeGreaterThanOrEqual(20);
    }
  });

  it('only uses genre ids of the right type', () => {
    const movieIds = new Set(movieGenres.map((g) => g.id));
    const tvIds = new Set(tvGenres.map((g) => g.id));
    for (const t of catalogue.byPopularity.movie) expect(t.genreIds.every((id) => movieIds.has(id))).toBe(true);
    for (const t of catalogue.byPopularity.tv) expect(t.genreIds.every((id) => tvIds.has(id))).toBe(true);
  });

  it.each([1, 50, 300, 3000])('has the featured movie 604 at size %i, with pictures and a clip', (size) => {
    const small = generateCatalogue({ size, seed: 7, today });
    const featured = small.byId.movie.get(FEATURED_MOVIE_ID)!;
    expect(featured).toBeDefined();
    expect(featured.posterPath).not.toBeNull();
    expect(featured.backdropPath).not.toBeNull();
    expect(featured.hasVideo).toBe(true);
    // ids stay unique and ascending
    const ids = [...small.byId.movie.keys()];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps movie and series ids in separate spaces (some ids are shared)', () => {
    const shared = [...catalogue.byId.movie.keys()].filter((id) => catalogue.byId.tv.has(id));
    expect(shared.length).toBeGreaterThan(0);
    expect(catalogue.byId.movie.get(shared[0]!)!.name).toBeDefined();
  });

  it('is deterministic for a seed and different for another', () => {
    const again = generateCatalogue({ size: 3000, seed: 42, today });
    const other = generateCatalogue({ size: 3000, seed: 43, today });
    const page = (c: typeof catalogue) => c.byPopularity.movie.slice(0, 50).map((t) => summaryJson(c, t)).join();
    expect(page(again)).toBe(page(catalogue));
    expect(page(other)).not.toBe(page(catalogue));
    const t = catalogue.byId.movie.get(604)!;
    expect(JSON.stringify(creditsOf(42, again.byId.movie.get(604)!))).toBe(JSON.stringify(creditsOf(42, t)));
    expect(overviewOf(43, other.byId.movie.get(604)!)).not.toBe(overviewOf(42, t));
  });

  it('has releases after today for upcoming, soonest first', () => {
    expect(catalogue.upcoming.length).toBeGreaterThanOrEqual(20);
    const days = catalogue.upcoming.map((t) => t.day);
    expect(days.every((d) => d > today)).toBe(true);
    expect([...days].sort((a, b) => a - b)).toEqual(days);
  });

  it('has some titles without a poster or a backdrop, but the most popular have both', () => {
    const all = catalogue.allByPopularity;
    expect(all.some((t) => t.posterPath === null)).toBe(true);
    expect(all.some((t) => t.backdropPath === null)).toBe(true);
    for (const t of catalogue.byPopularity.movie.slice(0, 40)) expect(t.backdropPath && t.posterPath).toBeTruthy();
  });

  it('gives certifications from the right scale and plausible numbers', () => {
    for (const t of catalogue.byPopularity.movie) {
      expect(['G', 'PG', 'PG-13', 'R']).toContain(t.certification);
      expect(t.runtime).toBeGreaterThanOrEqual(60);
      expect(t.voteAverage).toBeGreaterThanOrEqual(0);
      expect(t.voteAverage).toBeLessThanOrEqual(10);
    }
    for (const t of catalogue.byPopularity.tv) expect(['TV-PG', 'TV-14', 'TV-MA']).toContain(t.certification);
  });

  it('credits have at least 8 cast and one or two Directors among other crew jobs', () => {
    for (const t of catalogue.allByPopularity.slice(0, 300)) {
      const { cast, crew } = creditsOf(42, t);
      expect(cast.length).toBeGreaterThanOrEqual(8);
      const directors = crew.filter((p) => p.job === 'Director');
      expect(directors.length).toBeGreaterThanOrEqual(1);
      expect(directors.length).toBeLessThanOrEqual(2);
      expect(crew.some((p) => p.job === 'Writer' || p.job === 'Screenplay')).toBe(true);
      expect(new Set(cast.map((p) => p.id)).size).toBe(cast.length);
    }
  });

  it('related titles share a genre and exclude the title itself', () => {
    for (const t of catalogue.allByPopularity.slice(0, 100)) {
      const related = relatedTo(catalogue, t);
      expect(related.length).toBeGreaterThan(0);
      for (const r of related) {
        expect(r).not.toBe(t);
        expect(r.type).toBe(t.type);
        expect(r.genreIds.some((id) => t.genreIds.includes(id))).toBe(true);
      }
    }
  });

  it('rejects impossible sizes', () => {
    expect(() => generateCatalogue({ size: 0, seed: 1, today })).toThrow(/size/);
    expect(() => generateCatalogue({ size: 1.5, seed: 1, today })).toThrow(/size/);
  });

  // Speed is measured by the bench (npm run bench), not asserted here: timings flake on a busy machine.
  it('builds 100,000 titles', () => {
    const big = generateCatalogue({ size: 100_000, seed: 1, today });
    expect(big.byPopularity.movie.length + big.byPopularity.tv.length).toBe(100_000);
    expect(big.byId.movie.has(604)).toBe(true);
    expect(new Set(big.byPopularity.movie.map((t) => t.id)).size).toBe(big.byPopularity.movie.length);
  });
});
