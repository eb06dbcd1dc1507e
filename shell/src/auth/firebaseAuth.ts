import { initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  indexedDBLocalPersistence,
  initializeAuth,
  onAuthStateChanged,
  signInWithEmailAndPassword,
  signOut as firebaseSignOut,
  type Auth,
} from 'firebase/auth';
import type { AuthState, RuntimeConfig, SignInError, SignUpResult } from '@netnet/shared';
import { signInErrorFor, signUpResultFor } from './authErrors';

// The only module that talks to Firebase. Loaded on demand by startAuth.

let auth: Auth | null = null;

export function initialise(config: RuntimeConfig): void {
  if (auth) return;
  const app = initializeApp(config.firebase);
  // No popup/redirect resolver: email and password only, which keeps the chunk small.
  auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
  if (config.authEmulatorUrl) connectAuthEmulator(auth, config.authEmulatorUrl, { disableWarnings: true });
}

function current(): Auth {
  if (!auth) throw new Error('Firebase Auth was used before it was initialised.');
  return auth;
}

export function watch(onChange: (state: AuthState) => void): () => void {
  return onAuthStateChanged(current(), (user) =>
    onChange(user ? { status: 'authenticated', member: { uid: user.uid, email: user.email } } : { status: 'anonymous' }),
  );
}

export async function signUp(email: string, password: string): Promise<SignUpResult> {
  try {
    await createUserWithEmailAndPassword(current(), email, password);
    return { redirect: false };
  } catch (error) {
    return signUpResultFor(error);
  }
}

export async function signIn(email: string, password: string): Promise<SignInError | null> {
  try {
    await signInWithEmailAndPassword(current(), email, password);
    return null;
  } catch (error) {
    return signInErrorFor(error);
  }
}

export async function signOut(): Promise<void> {
  try {
    await firebaseSignOut(current());
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    console.error('[netnet] sign-out failed:', code, message);
    throw error;
  }
}
