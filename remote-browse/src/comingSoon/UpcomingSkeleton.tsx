import { Skeleton } from '@netnet/shared';
import styles from './ComingSoon.module.scss';

export function UpcomingSkeleton() {
  return (
    <div role="status">
      <span className="nn-visually-hidden">Loading upcoming titles</span>
      <ul className={styles.list} aria-hidden="true">
        {Array.from({ length: 3 }, (_, i) => (
          <li key={i} className={styles.item}>
            <Skeleton width="var(--nn-poster-width)" height="var(--nn-poster-height)" />
            <div className={styles.text}>
              <Skeleton width="60%" height="1.25rem" />
              <Skeleton width="40%" height="1rem" />
              <Skeleton width="100%" height="3rem" />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
