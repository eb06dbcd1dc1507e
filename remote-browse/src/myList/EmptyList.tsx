import { Link, href } from '@netnet/shared';
import buttons from '../common/buttons.module.scss';
import styles from './MyList.module.scss';

/**
 * How a title gets here. Always on the page, above whatever the list holds: the list is read in
 * the browser, so this is what the page shows first, and nothing above the list moves when it lands.
 */
export function ListHint() {
  return (
    <p className={styles.hint}>
      Add a title with the <strong>My list</strong> button on its page, or on the featured title of Movies and
      Series. It will wait for you here.
    </p>
  );
}

/** The empty state: where to find titles to add. */
export function EmptyList() {
  return (
    <div className={styles.empty}>
      <p className={styles.lead}>Your list is empty.</p>
      <div className={styles.actions}>
        <Link className={buttons.primary} to={href('movies')}>
          Find movies
        </Link>
        <Link className={buttons.secondary} to={href('series')}>
          Find series
        </Link>
      </div>
    </div>
  );
}
