import { useId } from 'react';
import { Link, href, useSearchParams } from '@netnet/shared';
import { prefillEmail } from '../forms/validation';
import { SignInForm } from '../signin/SignInForm';
import styles from './Login.module.scss';

/** /login (docs/product.md#sign-in-page): `?email=` arrives from the sign-up form when the address already has an account. */
export default function Login() {
  const [params] = useSearchParams();
  const headingId = useId();
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby={headingId}>
        <h1 id={headingId} className={styles.heading}>
          Sign In
        </h1>
        <SignInForm initialEmail={prefillEmail(params.get('email'))} labelledBy={headingId} />
        <p className={styles.signUp}>
          New to Netnet? <Link to={href('landing')}>Sign up now</Link>
        </p>
      </section>
    </div>
  );
}
