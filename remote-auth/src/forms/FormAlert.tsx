import type { ReactNode } from 'react';
import styles from './FormAlert.module.scss';

/** The banner above a form that says why the last attempt did not go through. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className={styles.alert}>
      {children}
    </div>
  );
}
