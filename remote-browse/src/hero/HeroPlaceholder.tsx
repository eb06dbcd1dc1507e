import buttons from '../common/buttons.module.scss';
import styles from './Hero.module.scss';

interface HeroPlaceholderProps {
  /** What the hero would show, e.g. 'featured movie'. */
  what: string;
  /** Present when loading failed: the placeholder then says so and offers to try again. */
  onRetry?: () => void;
}

/** Holds the hero's 24rem while the featured title loads or when it could not be loaded (SPEC §2). */
export function HeroPlaceholder({ what, onRetry }: HeroPlaceholderProps) {
  return (
    <div className={`${styles.hero} ${styles.placeholder}`} data-testid="hero-placeholder">
      {onRetry ? (
        <div className={styles.content}>
          <p className={styles.failed}>The {what} could not be loaded.</p>
          <button type="button" className={buttons.quiet} onClick={onRetry}>
            Retry
          </button>
        </div>
      ) : (
        <span role="status" className="nn-visually-hidden">
          Loading the {what}
        </span>
      )}
    </div>
  );
}
