import type { MouseEvent } from 'react';
import styles from './Layout.module.scss';

export const MAIN_ID = 'main';

/** The first Tab stop of every page: past the header and its navigation, straight to the page. */
export function SkipLink() {
  // Focus moves without a change of address: the router would read "#main" as a navigation.
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
  };
  return (
    <a href={`#${MAIN_ID}`} className={styles.skipLink} onClick={skip}>
      Skip to content
    </a>
  );
}
