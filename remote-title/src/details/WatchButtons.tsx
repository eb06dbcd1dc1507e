import { Icon, icons } from '@netnet/shared';
import styles from './WatchButtons.module.scss';

interface WatchButtonsProps {
  onPlay(): void;
  onDownload(): void;
}

/** Play and Download, full width on phones as on the streaming apps. */
export function WatchButtons({ onPlay, onDownload }: WatchButtonsProps) {
  return (
    <div className={styles.buttons}>
      <button type="button" className={`${styles.button} ${styles.play}`} onClick={onPlay}>
        <Icon d={icons.play} />
        Play
      </button>
      <button type="button" className={`${styles.button} ${styles.download}`} onClick={onDownload}>
        <Icon d={icons.download} />
        Download
      </button>
    </div>
  );
}
