// "More like this": titles sharing the main genre, a different slice for every title so rows
// do not all look alike.
import { hash32 } from './random';
import type { Catalogue, TitleRecord } from './model';

export const RELATED_COUNT = 40;

/** Candidates come from the most popular part of the genre, where members look first. */
const POOL_LIMIT = 500;

export function relatedTo(catalogue: Catalogue, title: TitleRecord): TitleRecord[] {
  const genre = catalogue.byGenre(title.type).get(title.genreIds[0]!) ?? [];
  const pool = genre.length > POOL_LIMIT ? genre.slice(0, POOL_LIMIT) : genre;
  if (pool.length === 0) return [];
  const start = hash32(catalogue.seed, title.type, title.id, 'related') % pool.length;
  const related: TitleRecord[] = [];
  for (let i = 0; i < pool.length && related.length < RELATED_COUNT; i++) {
    const candidate = pool[(start + i) % pool.length]!;
    if (candidate !== title) related.push(candidate);
  }
  return related.sort((a, b) => b.popularity - a.popularity || a.id - b.id);
}
