import { useId, type ComponentPropsWithRef } from 'react';
import styles from './TextField.module.scss';

interface TextFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'id' | 'placeholder' | 'className'> {
  label: string;
  /** The message to show, or nothing while the field is untouched or valid. */
  error?: string | undefined;
}

/** A labelled input whose error is tied to it for assistive technology. */
export function TextField({ label, error, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <div className={`${styles.control} ${error ? styles.invalid : ''}`}>
        {/* The blank placeholder lets CSS float the label once the field holds text (:placeholder-shown). */}
        <input
          {...input}
          id={id}
          className={styles.input}
          placeholder=" "
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
        />
        <label htmlFor={id} className={styles.label}>
          {label}
        </label>
      </div>
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
