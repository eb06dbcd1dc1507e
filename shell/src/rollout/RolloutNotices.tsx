import { OverrideBanner } from './OverrideBanner';
import { VersionFooter } from './VersionFooter';
import styles from './RolloutNotices.module.scss';

/** Rollout information for QA and support, shown over any page. */
export function RolloutNotices() {
  return (
    <div className={styles.notices}>
      <OverrideBanner />
      <VersionFooter />
    </div>
  );
}
