import { useAtomValue } from 'jotai';
import { authAtom, Link, href } from '@netnet/shared';
import styles from './Logo.module.scss';

/** The wordmark; leads members home (/browse) and visitors to the landing page. */
export function Logo() {
  const signedIn = useAtomValue(authAtom).status === 'authenticated';
  return (
    <Link to={signedIn ? href('browse') : href('landing')} className={styles.logo} aria-label="Netnet home">
      NETNET
    </Link>
  );
}
