import { href, Outlet, useLocation, useNavigating } from '@netnet/shared';
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
  // The page shown stays until the next is ready: busy meanwhile, for assistive technology too.
  const navigating = useNavigating();
  return (
    <>
      <SkipLink />
      {homeHeaderPaths.includes(pathname) ? <HomeHeader /> : <BackHeader />}
      <main id={MAIN_ID} tabIndex={-1} className={styles.memberMain} aria-busy={navigating || undefined}>
        <Outlet />
      </main>
      <BottomNav />
      <PageNotice />
    </>
  );
}
