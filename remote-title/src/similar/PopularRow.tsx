import { useId } from 'react';
import { catalogue, LoadError, Poster, titleHref, Skeleton, titleName, useCatalogue, type MediaType } from '@netnet/shared';
import styles from './MoreLikeThis.module.scss';

/** A row of popular titles of the same type, the current one left out. */
export function PopularRow({ type, excludeId }: { type: MediaType; excludeId: number }) {
  const popular = useCatalogue(catalogue.popular(type));
  const headingId = useId();
  const heading = type === 'movie' ? 'Popular movies' : 'Popular series';
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        {heading}
      </h2>
      {popular.status === 'loading' && (
        <div className={styles.row} aria-busy="true">
          <span className="nn-visually-hidden">Loading {heading.toLowerCase()}</span>
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} width="var(--nn-poster-width)" height="var(--nn-poster-height)" />
          ))}
        </div>
      )}
      {popular.status === 'error' && <LoadError onRetry={popular.retry} />}
      {popular.status === 'fetched' && (
        <ul className={styles.row}>
          {popular.data.results
            .filter((title) => title.id !== excludeId)
            .map((title) => (
              <li key={title.id}>
                <Poster path={title.poster_path} name={titleName(title)} to={titleHref(type, title.id)} />
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}
