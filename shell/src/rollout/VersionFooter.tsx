import { remoteNames } from '../federation/remotes';
import { useRolloutStatus, type RemoteStatus } from './rolloutStatus';
import styles from './RolloutNotices.module.scss';

function describe(status: RemoteStatus): string {
  const failed = status.fellBackFrom && `, ${status.fellBackFrom.channel} ${status.fellBackFrom.version} failed`;
  return `${status.version} (${status.channel}${failed ?? ''})`;
}

/** With ?debug: which release of each remote this page loaded. */
export function VersionFooter() {
  const { debug, remotes } = useRolloutStatus();
  if (!debug) return null;
  return (
    <footer aria-label="Remote versions" className={styles.footer}>
      <ul>
        {remoteNames.map((remote) => {
          const status = remotes[remote];
          return (
            <li key={remote}>
              {remote}: {status ? describe(status) : 'not loaded'}
            </li>
          );
        })}
      </ul>
    </footer>
  );
}
