import { titleName, type MediaType, type TitleSummary } from '@netnet/shared';

/** A search result the page can show: a movie or a series with a backdrop to show it by. */
export interface SearchHit {
  id: number;
  type: MediaType;
  name: string;
  backdrop: string;
  /** Release (or first air) year, when the catalogue knows it. */
  year?: string;
}

/**
 * search/multi also returns people, and titles without a backdrop would be blank tiles:
 * keep movies and series that have one. A movie and a series may share an id, so both are kept.
 */
export function searchHits(results: readonly TitleSummary[]): SearchHit[] {
  const seen = new Set<string>();
  const hits: SearchHit[] = [];
  for (const result of results) {
    const type = result.media_type;
    if (type !== 'movie' && type !== 'tv') continue;
    if (!result.backdrop_path) continue;
    const key = `${type}/${result.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const year = /^\d{4}/.exec(result.release_date ?? result.first_air_date ?? '')?.[0];
    hits.push({ id: result.id, type, name: titleName(result), backdrop: result.backdrop_path, ...(year && { year }) });
  }
  return hits;
}
