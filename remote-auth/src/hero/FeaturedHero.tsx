import type { ReactNode } from 'react';
import { BackdropBoundary } from './BackdropBoundary';
import { FeaturedBackdrop, BackdropPlaceholder } from './FeaturedBackdrop';
import styles from './FeaturedHero.module.scss';

/**
 * The landing page's first screen: `children` over the backdrop of the featured title (SPEC §1).
 * The backdrop is decoration the page can live without, so nothing it does can take the form down.
 */
export function FeaturedHero({ children }: { children: ReactNode }) {
  return (
    <section className={styles.hero}>
      {children}
      <BackdropBoundary fallback={<BackdropPlaceholder />}>
        <FeaturedBackdrop />
      </BackdropBoundary>
    </section>
  );
}
