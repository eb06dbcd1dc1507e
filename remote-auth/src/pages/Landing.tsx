import { useId } from 'react';
import { useLocation, usePageTitle } from '@netnet/shared';
import { FeaturedHero } from '../hero/FeaturedHero';
import { SignUpForm } from '../signup/SignUpForm';
import styles from './Landing.module.scss';

/**
 * / (docs/product.md#landing-page): the tagline and the sign-up form over the featured title's
 * backdrop. A visitor the guard sent here from a members' link (`state.from`, set by the shell's
 * guard and its server) is told first that the link is kept and opens once they are in.
 */
export default function Landing() {
  const headingId = useId();
  const { state } = useLocation();
  usePageTitle('Watch movies and series online');
  return (
    <FeaturedHero>
      <div className={styles.content}>
        {(state as { from?: unknown } | null)?.from ? (
          <p>We’ve kept your link. Sign in or sign up to open it.</p>
        ) : null}
        <h1 className={styles.tagline}>Unlimited movies, TV shows, and more.</h1>
        <p className={styles.subtitle}>Watch anywhere. Cancel anytime.</p>
        <section className={styles.signUp} aria-labelledby={headingId}>
          <h2 id={headingId} className={styles.prompt}>
            Ready to watch? Enter your email to create or restart your membership.
          </h2>
          <SignUpForm labelledBy={headingId} />
        </section>
      </div>
    </FeaturedHero>
  );
}
