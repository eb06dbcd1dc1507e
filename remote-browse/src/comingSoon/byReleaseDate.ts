import type { TitleSummary } from '@netnet/shared';
import { parseReleaseDate } from './releaseDate';

/** Soonest first; titles without a known date go last. The catalogue does not promise an order. */
export function byReleaseDate(titles: readonly TitleSummary[]): TitleSummary[] {
  const time = (t: TitleSummary) => parseReleaseDate(t.release_date)?.getTime() ?? Number.POSITIVE_INFINITY;
  return [...titles].sort((a, b) => time(a) - time(b));
}
