import { LoadError } from '@netnet/shared';
import styles from './Hero.module.scss';

interface HeroPlaceholderProps {
  /** What the hero would show, e.g. 'featured movie'. */
  what: string;
  /** Present when loading failed: the placeholder then says so and offers to try again. */
  onRetry?: () => void;
}

/** Holds the hero's 24rem while the featured title loads or when it could not be loaded (docs/product.md#hero-block). */
export function HeroPlaceholder({ what, onRetry }: HeroPlaceholderProps) {
  return (
    <div className={`${styles.hero} ${styles.placeholder}`} data-testid="hero-placeholder">
      {onRetry ? (
        <div className={styles.content}>
          <LoadError message={`The ${what} could not be loaded.`} onRetry={onRetry} />
        </div>
      ) : (
        <span role="status" className="nn-visually-hidden">
          Loading the {what}
        </span>
      )}
    </div>
  );
}
