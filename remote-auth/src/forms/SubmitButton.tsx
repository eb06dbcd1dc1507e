import { Spinner } from '@netnet/shared';
import styles from './SubmitButton.module.scss';

interface SubmitButtonProps {
  label: string;
  /** What a screen reader hears while the request runs, e.g. 'Signing in'. */
  pendingLabel: string;
  pending: boolean;
  /** Not usable yet, though not busy either. */
  disabled?: boolean;
  size?: 'normal' | 'large';
}

export function SubmitButton({ label, pendingLabel, pending, disabled = false, size = 'normal' }: SubmitButtonProps) {
  return (
    <button type="submit" className={`${styles.button} ${styles[size]}`} disabled={pending || disabled}>
      {pending ? <Spinner size="small" label={pendingLabel} /> : label}
    </button>
  );
}
