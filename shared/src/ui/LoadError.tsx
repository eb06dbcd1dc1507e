import type { ReactNode } from 'react';
import styles from './LoadError.module.scss';

interface LoadErrorProps {
  /** Asks again. */
  onRetry: () => void;
  /** What went wrong, in the member's words (docs/product.md lists them). */
  message?: string;
  /** A second sentence: the reason, or what still works. */
  detail?: ReactNode;
  /** Announced at once (role=alert): for a failure the member is waiting on, not one of many rows. */
  alert?: boolean;
  /** The id of what failed (e.g. a row's heading), so each of several Retry buttons says which it retries. */
  describedBy?: string;
  /** Layout where it sits. */
  className?: string;
}

/** The one 'Something went wrong' with a Retry, for anything that could not be loaded. */
export function LoadError({ onRetry, message = 'Something went wrong', detail, alert = false, describedBy, className }: LoadErrorProps) {
  return (
    <div className={className ? `${styles.error} ${className}` : styles.error} role={alert ? 'alert' : undefined}>
      <p className={styles.message}>
        {detail ? (
          <>
            <strong className={styles.problem}>{message}</strong> {detail}
          </>
        ) : (
          message
        )}
      </p>
      <button type="button" className={styles.retry} onClick={onRetry} aria-describedby={describedBy}>
        Retry
      </button>
    </div>
  );
}
