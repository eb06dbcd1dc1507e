import { Link, routes } from '@netnet/shared';
import { DownloadsIcon } from '../downloads/DownloadsIcon';
import buttons from '../common/buttons.module.scss';
import styles from '../downloads/Downloads.module.scss';

/** An honest empty state: the web app cannot keep titles offline (DESIGN §8). */
export default function Downloads() {
  return (
    <section className={styles.empty}>
      <DownloadsIcon className={styles.icon} />
      <h1 className={styles.heading}>Downloads</h1>
      <p className={styles.text}>Downloads are not available on the web yet.</p>
      <p className={styles.text}>Until then, there is plenty to watch in the catalogue.</p>
      <Link className={buttons.primary} to={routes.browse}>
        Browse titles
      </Link>
    </section>
  );
}
