import { Icon, icons, Link, href, usePageTitle } from '@netnet/shared';
import buttons from '../common/buttons.module.scss';
import styles from '../downloads/Downloads.module.scss';

/** An honest empty state: the web app cannot keep titles offline (docs/product.md#downloads). */
export default function Downloads() {
  usePageTitle('Downloads');
  return (
    <section className={styles.empty}>
      <Icon d={icons.download} className={styles.icon} />
      <h1 className={styles.heading}>Downloads</h1>
      <p className={styles.text}>Downloads are not available on the web yet.</p>
      <p className={styles.text}>Until then, there is plenty to watch in the catalogue.</p>
      <Link className={buttons.primary} to={href('browse')}>
        Browse titles
      </Link>
    </section>
  );
}
