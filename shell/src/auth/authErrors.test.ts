import { messages, signInErrorFor, signUpResultFor } from './authErrors';

const firebaseError = (code: string) => Object.assign(new Error(code), { code });

describe('sign-in errors', () => {
  it.each([
    ['auth/wrong-password', messages.wrongPassword, undefined],
    ['auth/user-not-found', messages.userNotFound, true],
    ['auth/invalid-credential', messages.invalidCredential, true],
    ['auth/network-request-failed', messages.network, undefined],
    ['auth/too-many-requests', messages.tooManyRequests, undefined],
    ['auth/something-new', messages.unknown, undefined],
  ])('%s → a message for the member', (code, message, offerSignUp) => {
    expect(signInErrorFor(firebaseError(code))).toEqual(offerSignUp ? { message, offerSignUp } : { message });
  });

  it('uses the exact texts of the spec', () => {
    expect(messages.wrongPassword).toBe('Incorrect password. Please try again');
    expect(messages.userNotFound).toBe(
      "Sorry, we can't find an account with this email address. Please try again or create a new account.",
    );
  });

  it('never leaves the member without a message, even for a non-Firebase error', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    expect(signInErrorFor(new TypeError('boom')).message).toBe(messages.unknown);
  });
});

describe('sign-up results', () => {
  it('an existing email continues to sign-in', () => {
    expect(signUpResultFor(firebaseError('auth/email-already-in-use'))).toEqual({ redirect: true });
  });

  it.each([
    ['auth/weak-password', messages.weakPassword],
    ['auth/invalid-email', messages.invalidEmail],
    ['auth/network-request-failed', messages.network],
  ])('%s → a message', (code, error) => {
    expect(signUpResultFor(firebaseError(code))).toEqual({ redirect: false, error });
  });
});
