import { href, Outlet, useLocation } from '@netnet/shared';
import { HomeHeader } from './HomeHeader';
import { BackHeader } from './BackHeader';
import { BottomNav } from './BottomNav';
import styles from './Layout.module.scss';

/** The three screens that carry the home header; every other member screen has a Back header. */
const homeHeaderPaths: readonly string[] = [href('browse'), href('movies'), href('series')];

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
