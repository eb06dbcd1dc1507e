import { Skeleton } from '@netnet/shared';
import styles from './Row.module.scss';

/** The loading row: five poster-shaped placeholders (docs/product.md#genre-rows). */
export const SKELETON_POSTERS = 5;

export function RowSkeleton({ label }: { label: string }) {
  return (
    <div className={styles.list} role="status">
      <span className="nn-visually-hidden">{label}</span>
      {Array.from({ length: SKELETON_POSTERS }, (_, i) => (
        <span key={i} className={styles.item} data-testid="poster-skeleton">
          <Skeleton width="var(--nn-poster-width)" height="var(--nn-poster-height)" />
        </span>
      ))}
    </div>
  );
}
