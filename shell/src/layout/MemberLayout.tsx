import { href, Outlet, useLocation } from '@netnet/shared';
import { HomeHeader } from './HomeHeader';
import { BackHeader } from './BackHeader';
import { BottomNav } from './BottomNav';
import { PageNotice } from './PageNotice';
import { MAIN_ID, SkipLink } from './SkipLink';
import styles from './Layout.module.scss';

/** The three screens that carry the home header; every other member screen has a Back header. */
const homeHeaderPaths: readonly string[] = [href('browse'), href('movies'), href('series')];

/** Members' frame: the skip link, the header for the screen, the page, and the bottom navigation (phones). */
export function MemberLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <SkipLink />
      {homeHeaderPaths.includes(pathname) ? <HomeHeader /> : <BackHeader />}
      <main id={MAIN_ID} tabIndex={-1} className={styles.memberMain}>
        <Outlet />
      </main>
      <BottomNav />
      <PageNotice />
    </>
  );
}
