import { useId } from 'react';
import { catalogue, LoadError, useCatalogue } from '@netnet/shared';
import type { RowDefinition } from './rowSets';
import { PosterList } from './PosterList';
import { RowSkeleton } from './RowSkeleton';
import styles from './Row.module.scss';

/** One genre carousel (docs/product.md#genre-rows): discover/{type}?with_genres={id}, posters to their pages. */
/** A phone shows about four posters of a row; the first row is on screen as the page opens. */
const POSTERS_ON_SCREEN = 4;

export function Row({ row, first = false }: { row: RowDefinition; first?: boolean }) {
  const headingId = useId();
  const titles = useCatalogue(catalogue.discover(row.type, row.id));

  return (
    <section className={styles.row} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        {row.title}
      </h2>
      {titles.status === 'loading' && <RowSkeleton label={`Loading ${row.title}`} />}
      {titles.status === 'error' && <LoadError onRetry={titles.retry} className={styles.failed} describedBy={headingId} />}
      {titles.status === 'fetched' && <PosterList titles={titles.data.results} type={row.type} onScreen={first ? POSTERS_ON_SCREEN : 0} />}
    </section>
  );
}
