import styles from './Spinner.module.scss';

interface SpinnerProps {
  /** What is loading, for screen readers. */
  label?: string;
  /** Centre the spinner in the viewport (used while auth state loads). */
  centered?: boolean;
  size?: 'small' | 'large';
}

export function Spinner({ label = 'Loading', centered = false, size = 'large' }: SpinnerProps) {
  const spinner = <span className={`${styles.spinner} ${styles[size]}`} role="status" aria-label={label} />;
  return centered ? <div className={styles.centered}>{spinner}</div> : spinner;
}
