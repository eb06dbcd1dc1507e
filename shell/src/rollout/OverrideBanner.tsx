import { clearOverrides, withoutOverrideParams } from './overrides';
import { useRolloutStatus } from './rolloutStatus';
import styles from './RolloutNotices.module.scss';

const list = (pins: Record<string, string>) =>
  Object.entries(pins)
    .map(([remote, version]) => `${remote} ${version}`)
    .join(', ');

/** Tells QA that this browser runs pinned versions, not what members get, and which pins were refused. */
export function OverrideBanner() {
  const { overrides, refusedPins } = useRolloutStatus();
  const active = Object.keys(overrides).length > 0;
  const refused = Object.keys(refusedPins).length > 0;
  if (!active && !refused) return null;
  return (
    <div role="status" className={styles.banner}>
      {active && <span>QA overrides active: {list(overrides)}</span>}
      {refused && (
        <span>
          Not pinnable here: {list(refusedPins)}. This page loads what members get.
        </span>
      )}
      {active && (
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
      )}
    </div>
  );
}
