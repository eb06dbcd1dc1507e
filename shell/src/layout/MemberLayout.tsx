import { homeHeaderPaths, Outlet, useLocation } from '@netnet/shared';
import { HomeHeader } from './HomeHeader';
import { BackHeader } from './BackHeader';
import { BottomNav } from './BottomNav';
import styles from './Layout.module.scss';

/** Members' frame: the header for the screen, the page, and the bottom navigation. */
export function MemberLayout() {
  const { pathname } = useLocation();
  return (
    <>
      {homeHeaderPaths.includes(pathname) ? <HomeHeader /> : <BackHeader />}
      <main className={styles.memberMain}>
        <Outlet />
      </main>
      <BottomNav />
    </>
  );
}
