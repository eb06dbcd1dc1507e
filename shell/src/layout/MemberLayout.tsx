import { useEffect, useState } from 'react';
import { href, Outlet, useLocation, useNavigating, useNavigationType } from '@netnet/shared';
import { HomeHeader } from './HomeHeader';
import { BackHeader } from './BackHeader';
import { BottomNav } from './BottomNav';
import { MissingPageNotice } from './MissingPageNotice';
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
  // Arriving from a visitors' page (signed in or up: the guard's replace), the member starts at the
  // top of their page, not as far down as the form was; a page load keeps the browser's scrolling.
  const [arrival] = useState(useNavigationType());
  useEffect(() => {
    if (arrival !== 'POP') window.scrollTo?.({ top: 0 });
  }, [arrival]);
  return (
    <>
      <SkipLink />
      {homeHeaderPaths.includes(pathname) ? <HomeHeader /> : <BackHeader />}
      <main id={MAIN_ID} tabIndex={-1} className={styles.memberMain} aria-busy={navigating || undefined}>
        <Outlet />
      </main>
      <BottomNav />
      <PageNotice />
      <MissingPageNotice />
    </>
  );
}
