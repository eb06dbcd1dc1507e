import { Outlet } from '@netnet/shared';
import { PublicHeader } from './PublicHeader';
import { MAIN_ID, SkipLink } from './SkipLink';
import styles from './Layout.module.scss';

export function PublicLayout() {
  return (
    <>
      <SkipLink />
      <PublicHeader />
      <main id={MAIN_ID} tabIndex={-1} className={styles.publicMain}>
        <Outlet />
      </main>
    </>
  );
}
