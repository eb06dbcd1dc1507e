import { useLayoutEffect, useRef, useState, useSyncExternalStore, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { prepareAuth } from '@netnet/shared';
import { FormAlert } from './FormAlert';
import { SubmitButton } from './SubmitButton';
import { TextField } from './TextField';
import { EMAIL_MAX_LENGTH, validateCredentials, type Credentials } from './validation';
import styles from './CredentialsForm.module.scss';

type Touched = Partial<Record<keyof Credentials, boolean>>;

const noChanges = () => () => {};
/**
 * False while the form is only the server's HTML (before the browser takes the page over, or
 * without scripts), which would submit natively: a GET to the page's address with the password in
 * it. The submit button waits for the form to run (docs/architecture.md#server-rendering).
 */
const useFormRuns = () => useSyncExternalStore(noChanges, () => true, () => false);

interface CredentialsFormProps {
  submitLabel: string;
  pendingLabel: string;
  /** Lets password managers tell signing up from signing in. */
  passwordAutoComplete: 'new-password' | 'current-password';
  /**
   * Runs with valid credentials. Resolves to what the alert banner should say after a failed
   * attempt, or to nothing when there is nothing to say (success, or the caller moved on).
   */
  onSubmit(credentials: Credentials): Promise<ReactNode>;
  /** Shown when onSubmit throws, e.g. the auth service is unreachable. */
  failureMessage: string;
  initialEmail?: string;
  initialPassword?: string;
  /** Said above the form before any attempt, e.g. why the member is here (a status, not an alert). */
  note?: ReactNode;
  /** The id of the heading that names the form. */
  labelledBy?: string;
  /** 'row' puts the fields and button side by side on desktop (the landing page). */
  layout?: 'stacked' | 'row';
}

/** Email and password with their validation (docs/product.md#forms-and-validation), a pending state and an alert banner: both forms' body. */
export function CredentialsForm({
  submitLabel,
  pendingLabel,
  passwordAutoComplete,
  onSubmit,
  failureMessage,
  initialEmail = '',
  initialPassword = '',
  note,
  labelledBy,
  layout = 'stacked',
}: CredentialsFormProps) {
  const [values, setValues] = useState<Credentials>({ email: initialEmail, password: initialPassword });
  const [touched, setTouched] = useState<Touched>({});
  const [pending, setPending] = useState(false);
  const [alert, setAlert] = useState<ReactNode>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const runs = useFormRuns();

  // What the member typed into the server's form before the browser took it over is theirs: the
  // form starts from it rather than wiping it on its first render.
  useLayoutEffect(() => {
    const typed = { email: emailRef.current?.value ?? '', password: passwordRef.current?.value ?? '' };
    setValues((v) => (typed.email === v.email && typed.password === v.password ? v : typed));
  }, []);

  const errors = validateCredentials(values);
  const shown = (field: keyof Credentials) => (touched[field] ? errors[field] : undefined);
  const field = (name: keyof Credentials) => ({
    name,
    value: values[name],
    error: shown(name),
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: event.target.value })),
    onBlur: () => setTouched((t) => (t[name] ? t : { ...t, [name]: true })),
  });

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setAlert(null);
    setTouched({ email: true, password: true });
    if (errors.email || errors.password) {
      (errors.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setPending(true);
    try {
      setAlert((await onSubmit({ email: values.email.trim(), password: values.password })) ?? null);
    } catch (error) {
      // The member gets a plain message; the cause stays available to whoever debugs it.
      console.error('[remote-auth] the auth call failed:', error);
      setAlert(failureMessage);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className={styles.wrapper}>
      {note && !alert && (
        <p role="status" className={styles.note}>
          {note}
        </p>
      )}
      {alert && <FormAlert>{alert}</FormAlert>}
      <form
        className={`${styles.form} ${styles[layout]}`}
        // The sign-in service loads when the visitor starts here, not on every visitor's page.
        onFocus={prepareAuth}
        onInput={prepareAuth}
        onSubmit={handleSubmit}
        noValidate
        aria-labelledby={labelledBy}
      >
        <TextField
          {...field('email')}
          ref={emailRef}
          label="Email address"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={EMAIL_MAX_LENGTH}
        />
        <TextField
          {...field('password')}
          ref={passwordRef}
          label="Password"
          type="password"
          autoComplete={passwordAutoComplete}
        />
        <SubmitButton
          label={submitLabel}
          pendingLabel={pendingLabel}
          pending={pending}
          disabled={!runs}
          size={layout === 'row' ? 'large' : 'normal'}
        />
      </form>
    </div>
  );
}
