import type { ReactNode } from 'react';
import { getAuthActions } from '@netnet/shared';
import { CredentialsForm } from '../forms/CredentialsForm';
import { SignInErrorMessage } from './SignInErrorMessage';

interface SignInFormProps {
  initialEmail: string;
  initialPassword?: string;
  note?: ReactNode;
  labelledBy: string;
}

/** On success the shell's guard sees the member and leaves /login by itself; only refusals land here. */
export function SignInForm({ initialEmail, initialPassword, note, labelledBy }: SignInFormProps) {
  return (
    <CredentialsForm
      submitLabel="Sign In"
      pendingLabel="Signing in"
      passwordAutoComplete="current-password"
      initialEmail={initialEmail}
      initialPassword={initialPassword}
      note={note}
      labelledBy={labelledBy}
      failureMessage="We couldn’t sign you in right now. Please check your connection and try again."
      onSubmit={async ({ email, password }) => {
        const error = await getAuthActions().signIn(email, password);
        return error ? <SignInErrorMessage error={error} /> : null;
      }}
    />
  );
}
