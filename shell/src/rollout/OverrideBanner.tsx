import { clearOverrides, withoutOverrideParams } from './overrides';
import { useRolloutStatus } from './rolloutStatus';
import styles from './RolloutNotices.module.scss';

/** Tells QA that this browser runs pinned versions, not what members get. */
export function OverrideBanner() {
  const { overrides } = useRolloutStatus();
  const pins = Object.entries(overrides);
  if (pins.length === 0) return null;
  return (
    <div role="status" className={styles.banner}>
      <span>QA overrides active: {pins.map(([remote, version]) => `${remote} ${version}`).join(', ')}</span>
      <button
        type="button"
        className={styles.clear}
        onClick={() => {
          clearOverrides();
          window.location.assign(withoutOverrideParams(window.location.href));
        }}
      >
        Clear overrides
      </button>
    </div>
  );
}
