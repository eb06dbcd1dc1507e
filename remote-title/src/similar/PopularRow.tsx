import { useId } from 'react';
import { catalogue, LoadError, Poster, titleHref, Skeleton, titleName, useCatalogue, type MediaType, type TitleSummary } from '@netnet/shared';
import { useRovingRow } from '@netnet/shared/roving-row';
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
      {popular.status === 'fetched' && <Posters titles={popular.data.results.filter((title) => title.id !== excludeId)} type={type} />}
    </section>
  );
}

/** The row's posters: one Tab stop, the arrow keys move along it. */
function Posters({ titles, type }: { titles: TitleSummary[]; type: MediaType }) {
  const { tabIndexOf, handlers } = useRovingRow(titles.length);
  return (
    // Arrow keys pressed on a poster link bubble here; the list keeps its own semantics.
    <div role="presentation" className={styles.rowFrame} {...handlers}>
      <ul className={styles.row}>
        {titles.map((title, index) => (
          <li key={title.id}>
            <Poster path={title.poster_path} name={titleName(title)} to={titleHref(type, title.id)} tabIndex={tabIndexOf(index)} />
          </li>
        ))}
      </ul>
    </div>
  );
}
