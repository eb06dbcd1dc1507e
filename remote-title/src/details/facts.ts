import type { MediaType, TitleDetails } from '@netnet/shared';

// The figures of the details line (docs/product.md#details-line, docs/product.md#limits-and-constants).

/** 'NN% match' from a 0–10 vote average; null when the title has no votes yet. */
export function matchPercent(voteAverage: number | null | undefined): number | null {
  if (typeof voteAverage !== 'number' || !Number.isFinite(voteAverage) || voteAverage <= 0) return null;
  return Math.round(Math.min(voteAverage, 10) * 10);
}

/** The year a movie was released or a series first aired. */
export function releaseYear(details: Pick<TitleDetails, 'release_date' | 'first_air_date'>, type: MediaType): string | null {
  const date = type === 'movie' ? details.release_date : (details.first_air_date ?? details.release_date);
  return date && /^\d{4}/.test(date) ? date.slice(0, 4) : null;
}

/** A movie's runtime, or a series' usual episode length, in minutes. */
export function runtimeMinutes(details: Pick<TitleDetails, 'runtime' | 'episode_run_time'>): number | null {
  const minutes = details.runtime ?? details.episode_run_time?.[0];
  return typeof minutes === 'number' && Number.isFinite(minutes) && minutes > 0 ? Math.round(minutes) : null;
}

/** 125 → '2h 5m', 120 → '2h', 45 → '45m'. */
export function formatRuntime(minutes: number | null): string | null {
  if (minutes === null) return null;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h ${rest}m`;
}

/** '2 hours 5 minutes', for screen readers that would read '2h 5m' as letters. */
export function spokenRuntime(minutes: number | null): string | null {
  if (minutes === null) return null;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts = [
    hours > 0 ? `${hours} ${hours === 1 ? 'hour' : 'hours'}` : '',
    rest > 0 ? `${rest} ${rest === 1 ? 'minute' : 'minutes'}` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

/** The certification when the catalogue knows it, else the spec's fixed 'R'. */
export function ratingBadge(details: Pick<TitleDetails, 'certification'>): string {
  return details.certification?.trim() || 'R';
}
