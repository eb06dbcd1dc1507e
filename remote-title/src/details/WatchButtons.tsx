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
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M7 4l13 8-13 8z" />
        </svg>
        Play
      </button>
      <button type="button" className={`${styles.button} ${styles.download}`} onClick={onDownload}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M11 4h2v9l3.5-3.5 1.4 1.4L12 16.8l-5.9-5.9 1.4-1.4L11 13zM5 18h14v2H5z" />
        </svg>
        Download
      </button>
    </div>
  );
}
