import { Link, href, type SignInError } from '@netnet/shared';

const SIGN_UP_PHRASE = /create a new account/i;

/**
 * The banner text for a refused sign-in. When the shell offers sign-up, the message's own
 * "create a new account" becomes the link (as on the original), or a link is added after it.
 */
export function SignInErrorMessage({ error }: { error: SignInError }) {
  if (!error.offerSignUp) return <>{error.message}</>;
  const match = SIGN_UP_PHRASE.exec(error.message);
  if (!match) {
    return (
      <>
        {error.message} <Link to={href('landing')}>Create a new account</Link>.
      </>
    );
  }
  const before = error.message.slice(0, match.index);
  const after = error.message.slice(match.index + match[0].length);
  return (
    <>
      {before}
      <Link to={href('landing')}>{match[0]}</Link>
      {after}
    </>
  );
}
