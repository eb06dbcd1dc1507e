import { OverrideBanner } from './OverrideBanner';
import { VersionFooter } from './VersionFooter';
import styles from './RolloutNotices.module.scss';

/** Rollout information for QA and support: loaded by RolloutNotices when a page has some. */
export default function NoticesShown() {
  return (
    <div className={styles.notices}>
      <OverrideBanner />
      <VersionFooter />
    </div>
  );
}
