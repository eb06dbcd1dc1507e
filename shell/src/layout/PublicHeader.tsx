import { Link, routes, useLocation } from '@netnet/shared';
import { Logo } from './Logo';
import styles from './Header.module.scss';

/** The visitors' header; the 'Sign In' link shows only on the landing page (SPEC §2). */
export function PublicHeader() {
  const { pathname } = useLocation();
  return (
    <header className={`${styles.header} ${styles.public}`}>
      <Logo />
      <span className={styles.spacer} />
      {pathname === routes.landing && (
        <Link to={routes.login()} className={styles.signIn}>
          Sign In
        </Link>
      )}
    </header>
  );
}
