import { useId } from 'react';
import { catalogue, LoadError, useCatalogue } from '@netnet/shared';
import { searchTerms } from './query';
import { searchHits } from './results';
import { ResultCard, type ImageLoading } from './ResultCard';
import styles from './SearchResults.module.scss';

// A phone shows the first three rows of two results as the page opens; the first row is the
// largest paint the member waits for.
const ON_SCREEN = 6;
const FIRST_ROW = 2;
const loadingOf = (index: number): ImageLoading => (index < FIRST_ROW ? 'first' : index < ON_SCREEN ? 'eager' : 'lazy');

/** The results for one query: 'Loading...', an error with Retry, 'Nada', or the grid. */
export function SearchResults({ query }: { query: string }) {
  const headingId = useId();
  const result = useCatalogue(catalogue.search(searchTerms(query)));
  const hits = result.status === 'fetched' ? searchHits(result.data.results) : [];

  return (
    <section className={styles.results} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        {query} results:
      </h2>
      {result.status === 'loading' && (
        <p className={styles.message} role="status">
          Loading...
        </p>
      )}
      {result.status === 'error' && (
        <LoadError
          message="Something went wrong while searching."
          detail={result.error.message}
          onRetry={result.retry}
          alert
        />
      )}
      {result.status === 'fetched' && hits.length === 0 && (
        <p className={styles.message} role="status">
          Nada
        </p>
      )}
      {hits.length > 0 && (
        <>
          <p className="nn-visually-hidden" role="status">
            {hits.length === 1 ? '1 title found' : `${hits.length} titles found`}
          </p>
          <ul className={styles.grid}>
            {hits.map((hit, index) => (
              <li key={`${hit.type}/${hit.id}`}>
                <ResultCard hit={hit} loading={loadingOf(index)} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
