import { Skeleton } from '@netnet/shared';
import styles from './TitleView.module.scss';

/** The page's shape while its details load; the one h1 names what is happening. */
export function TitleSkeleton() {
  return (
    <article className={styles.page} aria-busy="true">
      <div className={styles.main}>
        <Skeleton className={styles.trailerSkeleton} />
        <div className={styles.body}>
          <h1 className="nn-visually-hidden">Loading title</h1>
          <Skeleton width="60%" height="1.75rem" />
          <Skeleton width="45%" height="1rem" />
          <Skeleton width="100%" height="44px" />
          <Skeleton width="100%" height="4rem" />
        </div>
      </div>
    </article>
  );
}
