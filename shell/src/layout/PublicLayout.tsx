import { Outlet } from '@netnet/shared';
import { PublicHeader } from './PublicHeader';
import styles from './Layout.module.scss';

export function PublicLayout() {
  return (
    <>
      <PublicHeader />
      <main className={styles.publicMain}>
        <Outlet />
      </main>
    </>
  );
}
