import { getAuthActions, href, useNavigate } from '@netnet/shared';
import { CredentialsForm } from '../forms/CredentialsForm';
import { handOver } from './handoff';

/** A new member is signed in at once and the shell's guard takes them on; an existing one goes to /login with what they typed. */
export function SignUpForm({ labelledBy }: { labelledBy: string }) {
  const navigate = useNavigate();
  return (
    <CredentialsForm
      submitLabel="Get Started"
      pendingLabel="Creating your membership"
      passwordAutoComplete="new-password"
      labelledBy={labelledBy}
      layout="row"
      failureMessage="We couldn’t create your membership right now. Please check your connection and try again."
      onSubmit={async ({ email, password }) => {
        const result = await getAuthActions().signUp(email, password);
        if (result.redirect) {
          handOver({ email, password });
          navigate(href('login', { email: email }), { replace: true });
          return null;
        }
        return result.error ?? null;
      }}
    />
  );
}
