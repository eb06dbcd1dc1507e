import buttons from './buttons.module.scss';
import styles from './LoadError.module.scss';

interface LoadErrorProps {
  /** Asks the catalogue again. */
  onRetry: () => void;
  className?: string;
  /** The id of what failed (a row's heading), so each of several Retry buttons says which it retries. */
  describedBy?: string;
}

/** What a list shows when the catalogue did not answer (SPEC §8), with a way to try again. */
export function LoadError({ onRetry, className, describedBy }: LoadErrorProps) {
  return (
    <div className={`${styles.error} ${className ?? ''}`}>
      <p className={styles.message}>Something went wrong</p>
      <button type="button" className={buttons.quiet} onClick={onRetry} aria-describedby={describedBy}>
        Retry
      </button>
    </div>
  );
}
