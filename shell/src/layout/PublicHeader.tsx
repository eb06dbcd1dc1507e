import { Link, href, useLocation } from '@netnet/shared';
import { Logo } from './Logo';
import styles from './Header.module.scss';

/** The visitors' header; the 'Sign In' link shows only on the landing page (docs/product.md#frame-headers-and-navigation). */
export function PublicHeader() {
  const { pathname } = useLocation();
  return (
    <header className={`${styles.header} ${styles.public}`}>
      <Logo />
      <span className={styles.spacer} />
      {pathname === href('landing') && (
        <Link to={href('login')} className={styles.signIn}>
          Sign In
        </Link>
      )}
    </header>
  );
}
