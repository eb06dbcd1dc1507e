import { Spinner } from '@netnet/shared';
import styles from './SubmitButton.module.scss';

interface SubmitButtonProps {
  label: string;
  /** What a screen reader hears while the request runs, e.g. 'Signing in'. */
  pendingLabel: string;
  pending: boolean;
  size?: 'normal' | 'large';
}

export function SubmitButton({ label, pendingLabel, pending, size = 'normal' }: SubmitButtonProps) {
  return (
    <button type="submit" className={`${styles.button} ${styles[size]}`} disabled={pending}>
      {pending ? <Spinner size="small" label={pendingLabel} /> : label}
    </button>
  );
}
