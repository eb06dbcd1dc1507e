interface SpinnerProps {
  /** What is loading, for screen readers. */
  label?: string;
  /** Centre the spinner in the viewport (used while auth state loads). */
  centered?: boolean;
  size?: 'small' | 'large';
}

export function Spinner({ label = 'Loading', centered = false, size = 'large' }: SpinnerProps) {
  const spinner = <span className={`nn-spinner nn-spinner-${size}`} role="status" aria-label={label} />;
  return centered ? <div className="nn-spinner-centered">{spinner}</div> : spinner;
}
