import { Link, href } from '@netnet/shared';
import buttons from '../common/buttons.module.scss';
import styles from './MyList.module.scss';

/** The empty state tells the member how a title gets here. */
export function EmptyList() {
  return (
    <div className={styles.empty}>
      <p className={styles.lead}>Your list is empty.</p>
      <p className={styles.hint}>
        Add a title with the <strong>My list</strong> button on its page, or on the featured title of Movies
        and Series. It will wait for you here.
      </p>
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
