import { useId } from 'react';
import { catalogue, LoadError, useCatalogue } from '@netnet/shared';
import type { RowDefinition } from './rowSets';
import { PosterList } from './PosterList';
import { RowSkeleton } from './RowSkeleton';
import styles from './Row.module.scss';

/**
 * One genre carousel (docs/product.md#genre-rows): discover/{type}?with_genres={id}, posters to
 * their pages. `onScreen`: the row is in view as the page opens.
 */
export function Row({ row, onScreen = false }: { row: RowDefinition; onScreen?: boolean }) {
  const headingId = useId();
  const titles = useCatalogue(catalogue.discover(row.type, row.id));

  return (
    <section className={styles.row} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        {row.title}
      </h2>
      {titles.status === 'loading' && <RowSkeleton label={`Loading ${row.title}`} />}
      {titles.status === 'error' && <LoadError onRetry={titles.retry} className={styles.failed} describedBy={headingId} />}
      {titles.status === 'fetched' && <PosterList titles={titles.data.results} type={row.type} onScreen={onScreen} label={row.title} />}
    </section>
  );
}
