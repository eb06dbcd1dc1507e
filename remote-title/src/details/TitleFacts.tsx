import type { MediaType, TitleDetails } from '@netnet/shared';
import { formatRuntime, matchPercent, ratingBadge, releaseYear, runtimeMinutes, spokenRuntime } from './facts';
import styles from './TitleFacts.module.scss';

/** '97% match · 2023 · [R] · 2h 5m · [HD]' under the title (docs/product.md#details-line). */
export function TitleFacts({ details, type }: { details: TitleDetails; type: MediaType }) {
  const match = matchPercent(details.vote_average);
  const year = releaseYear(details, type);
  const minutes = runtimeMinutes(details);
  const badge = ratingBadge(details);
  return (
    <p className={styles.facts}>
      {match !== null && <span className={styles.match}>{match}% match</span>}
      {year && <span>{year}</span>}
      <span className={styles.badge}>
        <span className="nn-visually-hidden">Rated </span>
        <span>{badge}</span>
      </span>
      {minutes !== null && (
        <span>
          <span aria-hidden="true">{formatRuntime(minutes)}</span>
          <span className="nn-visually-hidden">{spokenRuntime(minutes)}</span>
        </span>
      )}
      {type === 'tv' && details.number_of_seasons ? (
        <span>{details.number_of_seasons === 1 ? '1 Season' : `${details.number_of_seasons} Seasons`}</span>
      ) : null}
      <span className={styles.badge}>HD</span>
    </p>
  );
}
