import type { ReactNode } from 'react';

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
    <div className={className ? `nn-load-error ${className}` : 'nn-load-error'} role={alert ? 'alert' : undefined}>
      <p className="nn-load-error-message">
        {detail ? (
          <>
            <strong className="nn-load-error-problem">{message}</strong> {detail}
          </>
        ) : (
          message
        )}
      </p>
      <button type="button" className="nn-load-error-retry" onClick={onRetry} aria-describedby={describedBy}>
        Retry
      </button>
    </div>
  );
}
