import { useId } from 'react';
import { catalogue, LoadError, mediaTypeOf, Poster, titleHref, Skeleton, titleName, useCatalogue, type MediaType } from '@netnet/shared';
import styles from './MoreLikeThis.module.scss';

export const SIMILAR_COUNT = 12;

/** 'More like this': the first 12 recommendations (movies) or similar titles (series) in 3 columns. */
export function MoreLikeThis({ type, id }: { type: MediaType; id: number }) {
  const similar = useCatalogue(catalogue.similar(type, id));
  const headingId = useId();
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        More like this
      </h2>
      {similar.status === 'loading' && (
        <div className={styles.grid} aria-busy="true">
          <span className="nn-visually-hidden">Loading similar titles</span>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} width="var(--nn-poster-width)" height="var(--nn-poster-height)" />
          ))}
        </div>
      )}
      {similar.status === 'error' && <LoadError onRetry={similar.retry} />}
      {similar.status === 'fetched' &&
        (similar.data.results.length === 0 ? (
          <p className={styles.empty}>No similar titles yet.</p>
        ) : (
          <ul className={styles.grid}>
            {similar.data.results.slice(0, SIMILAR_COUNT).map((title) => {
              const titleType = mediaTypeOf(title, type);
              return (
                <li key={`${titleType}-${title.id}`}>
                  <Poster path={title.poster_path} name={titleName(title)} to={titleHref(titleType, title.id)} />
                </li>
              );
            })}
          </ul>
        ))}
    </section>
  );
}
