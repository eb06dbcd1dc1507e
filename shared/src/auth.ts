import { atom } from 'jotai';

// The member's auth state and the sign-in actions. The shell owns Firebase and feeds both;
// remotes only read them through here and never initialise Firebase themselves.

export interface Member {
  uid: string;
  email: string | null;
}

/** loading → authenticated | anonymous (docs/product.md#guards-and-redirects). */
export type AuthState =
  | { status: 'loading' }
  | { status: 'authenticated'; member: Member }
  | { status: 'anonymous' };

export const authAtom = atom<AuthState>({ status: 'loading' });

export interface SignUpResult {
  /** The email already has an account: continue on /login with it prefilled (docs/product.md#sign-in-and-sign-up-messages). */
  redirect: boolean;
  error?: string;
}

export interface SignInError {
  message: string;
  /** Offer the way to create an account (unknown email). */
  offerSignUp?: boolean;
}

export interface AuthActions {
  signUp(email: string, password: string): Promise<SignUpResult>;
  signIn(email: string, password: string): Promise<SignInError | null>;
  signOut(): Promise<void>;
  /** The visitor started to sign up or sign in: the sign-in service may load now. */
  prepare?(): void;
}

let provided: AuthActions | null = null;

export function provideAuthActions(actions: AuthActions): void {
  provided = actions;
}

/** The shell's auth actions; a remote running standalone has none and says so. */
export function getAuthActions(): AuthActions {
  if (!provided) throw new Error('Signing in is not available here: open Netnet through its shell.');
  return provided;
}

/**
 * Called when a visitor starts on a sign-up or sign-in form (focus, input): the shell loads the
 * sign-in service then rather than on every visitor's first page. Does nothing without a shell.
 */
export function prepareAuth(): void {
  provided?.prepare?.();
}
