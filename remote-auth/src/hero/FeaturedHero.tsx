import type { ReactNode } from 'react';
import { ErrorBoundary } from '@netnet/shared';
import { FeaturedBackdrop, BackdropPlaceholder } from './FeaturedBackdrop';
import styles from './FeaturedHero.module.scss';

/**
 * The landing page's first screen: `children` over the backdrop of the featured title (docs/product.md#landing-page).
 * The backdrop is decoration the page can live without, so nothing it does can take the form down.
 */
export function FeaturedHero({ children }: { children: ReactNode }) {
  return (
    <section className={styles.hero}>
      {children}
      <ErrorBoundary fallback={<BackdropPlaceholder />}>
        <FeaturedBackdrop />
      </ErrorBoundary>
    </section>
  );
}
