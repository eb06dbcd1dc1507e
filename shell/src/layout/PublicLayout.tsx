import { Outlet, useNavigating } from '@netnet/shared';
import { PublicHeader } from './PublicHeader';
import { MAIN_ID, SkipLink } from './SkipLink';
import styles from './Layout.module.scss';

export function PublicLayout() {
  // The page shown stays until the next is ready: busy meanwhile, for assistive technology too.
  const navigating = useNavigating();
  return (
    <>
      <SkipLink />
      <PublicHeader />
      <main id={MAIN_ID} tabIndex={-1} className={styles.publicMain} aria-busy={navigating || undefined}>
        <Outlet />
      </main>
    </>
  );
}
