import { useId } from 'react';
import { usePageTitle } from '@netnet/shared';
import { FeaturedHero } from '../hero/FeaturedHero';
import { SignUpForm } from '../signup/SignUpForm';
import styles from './Landing.module.scss';

/** / (docs/product.md#landing-page): the tagline and the sign-up form over the featured title's backdrop. */
export default function Landing() {
  const headingId = useId();
  usePageTitle('Watch movies and series online');
  return (
    <FeaturedHero>
      <div className={styles.content}>
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
