import type { RemoteName } from '../federation/remotes';
import { clearDevPinsHref, refusedDevPins } from './devPin';
import { clearOverrides, withoutOverrideParams } from './overrides';
import { useRolloutStatus } from './rolloutStatus';
import styles from './RolloutNotices.module.scss';

const list = (pins: Record<string, string>) =>
  Object.entries(pins)
    .map(([remote, version]) => `${remote} ${version}`)
    .join(', ');

/**
 * Tells QA that this browser runs pinned versions (or a developer's dev server), not what members
 * get, and which pins were refused and why.
 */
export function OverrideBanner() {
  const { overrides, refusedPins, devServers, askedDevPins, remotes } = useRolloutStatus();
  const pinned = Object.keys(overrides).length > 0;
  const dev = Object.entries(devServers);
  const refused = Object.keys(refusedPins).length > 0;
  const refusedDev = Object.entries(refusedDevPins(askedDevPins, devServers));
  const active = pinned || dev.length > 0;
  if (!active && !refused && refusedDev.length === 0) return null;
  return (
    <div role="status" className={styles.banner}>
      {pinned && <span>QA overrides active: {list(overrides)}</span>}
      {dev.map(([remote, origin]) => (
        <span key={remote}>
          {remote} comes from the dev server at {origin}, in this browser only.
          {remotes[remote as RemoteName]?.fellBackFrom?.channel === 'dev' && ' It did not load (is it running?): this page shows what members get.'}
        </span>
      ))}
      {refused && (
        <span>
          Not pinnable here: {list(refusedPins)}. This page loads what members get.
        </span>
      )}
      {refusedDev.map(([remote, reason]) => (
        <span key={remote}>
          Dev server not pinned for {remote}: {reason}. This page loads what members get.
        </span>
      ))}
      {active && (
        <button
          type="button"
          className={styles.clear}
          onClick={() => {
            clearOverrides();
            const clean = withoutOverrideParams(window.location.href);
            // A dev pin lives in an HttpOnly cookie: the server unpins it for `remote.<name>=clear`.
            window.location.assign(dev.length ? clearDevPinsHref(clean, dev.map(([remote]) => remote as RemoteName)) : clean);
          }}
        >
          Clear overrides
        </button>
      )}
    </div>
  );
}
