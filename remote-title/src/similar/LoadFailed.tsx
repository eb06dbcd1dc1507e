import styles from './MoreLikeThis.module.scss';

/** SPEC §8: 'Something went wrong' for similar titles and popular lists, with a way to try again. */
export function LoadFailed({ onRetry }: { onRetry(): void }) {
  return (
    <div className={styles.failed}>
      <p>Something went wrong</p>
      <button type="button" className={styles.retry} onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
