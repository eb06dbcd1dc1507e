import { catalogue, LoadError, useCatalogue, usePageTitle } from '@netnet/shared';
import { byReleaseDate } from '../comingSoon/byReleaseDate';
import { UpcomingSkeleton } from '../comingSoon/UpcomingSkeleton';
import { UpcomingTitle } from '../comingSoon/UpcomingTitle';
import styles from '../comingSoon/ComingSoon.module.scss';

/** /coming-soon: the movies about to arrive (movie/upcoming), soonest first (docs/product.md#coming-soon). */
export default function ComingSoon() {
  usePageTitle('Coming soon');
  const upcoming = useCatalogue(catalogue.upcoming());
  return (
    <section className={styles.page}>
      <h1 className={styles.heading}>Coming soon</h1>
      {upcoming.status === 'loading' && <UpcomingSkeleton />}
      {upcoming.status === 'error' && <LoadError onRetry={upcoming.retry} />}
      {upcoming.status === 'fetched' &&
        (upcoming.data.results.length === 0 ? (
          <p className={styles.empty}>Nothing has been announced yet. Check back soon.</p>
        ) : (
          <ul className={styles.list} aria-label="Upcoming movies">
            {byReleaseDate(upcoming.data.results).map((title) => (
              <UpcomingTitle key={title.id} title={title} />
            ))}
          </ul>
        ))}
    </section>
  );
}
