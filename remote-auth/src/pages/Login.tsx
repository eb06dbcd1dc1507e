import { useEffect, useId, useState } from 'react';
import { Link, href, usePageTitle, useSearchParams } from '@netnet/shared';
import { prefillEmail } from '../forms/validation';
import { SignInForm } from '../signin/SignInForm';
import { clearHandoff, handedOver } from '../signup/handoff';
import styles from './Login.module.scss';

/** /login (docs/product.md#sign-in-page): `?email=` arrives from the sign-up form when the address already has an account. */
export default function Login() {
  const [params] = useSearchParams();
  const headingId = useId();
  const email = prefillEmail(params.get('email'));
  // Arriving from the sign-up form with an address that has an account: its password comes along.
  const [handoff] = useState(() => handedOver(email));
  useEffect(clearHandoff, []);
  usePageTitle('Sign In');
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby={headingId}>
        <h1 id={headingId} className={styles.heading}>
          Sign In
        </h1>
        <SignInForm
          initialEmail={email}
          initialPassword={handoff?.password}
          note={handoff && `${handoff.email} already has a Netnet account. Sign in to continue.`}
          labelledBy={headingId}
        />
        <p className={styles.signUp}>
          New to Netnet? <Link to={href('landing')}>Sign up now</Link>
        </p>
      </section>
    </div>
  );
}
