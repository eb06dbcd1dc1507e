import type { SignInError, SignUpResult } from '@netnet/shared';

// Firebase error codes → what the member reads (docs/product.md#sign-in-and-sign-up-messages). Nothing is swallowed:
// every failure gives the member a message.

export const messages = {
  wrongPassword: 'Incorrect password. Please try again',
  userNotFound:
    "Sorry, we can't find an account with this email address. Please try again or create a new account.",
  invalidCredential: 'Incorrect email or password. Please try again, or create a new account.',
  invalidEmail: 'Please enter a valid email address',
  weakPassword: 'Password should be between 6 and 60 characters',
  network: 'We couldn’t reach the sign-in service. Check your connection and try again.',
  tooManyRequests: 'Too many attempts. Please wait a moment and try again.',
  disabled: 'This account has been disabled.',
  unknown: 'Something went wrong. Please try again.',
} as const;

const codeOf = (error: unknown): string =>
  error && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : '';

function commonMessage(code: string): string {
  switch (code) {
    case 'auth/invalid-email':
      return messages.invalidEmail;
    case 'auth/weak-password':
    case 'auth/missing-password':
      return messages.weakPassword;
    case 'auth/network-request-failed':
    case 'auth/internal-error':
      return messages.network;
    case 'auth/too-many-requests':
      return messages.tooManyRequests;
    case 'auth/user-disabled':
      return messages.disabled;
    default:
      return messages.unknown;
  }
}

export function signInErrorFor(error: unknown): SignInError {
  const code = codeOf(error);
  switch (code) {
    case 'auth/wrong-password':
      return { message: messages.wrongPassword };
    case 'auth/user-not-found':
      return { message: messages.userNotFound, offerSignUp: true };
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
      return { message: messages.invalidCredential, offerSignUp: true };
    default:
      if (!code) console.error('[netnet] sign-in failed:', error);
      return { message: commonMessage(code) };
  }
}

export function signUpResultFor(error: unknown): SignUpResult {
  const code = codeOf(error);
  if (code === 'auth/email-already-in-use') return { redirect: true };
  if (!code) console.error('[netnet] sign-up failed:', error);
  return { redirect: false, error: commonMessage(code) };
}
