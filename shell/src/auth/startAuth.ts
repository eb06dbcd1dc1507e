import { getDefaultStore } from 'jotai';
import { authAtom, provideAuthActions, type RuntimeConfig } from '@netnet/shared';

/**
 * Feeds the shared auth atom from Firebase and provides the sign-in actions to the remotes.
 * Firebase loads as its own chunk, in parallel with the first render, so it is not part of
 * the shell's critical bytes. Returns the teardown that unsubscribes the listener.
 */
export function startAuth(config: RuntimeConfig): () => void {
  const store = getDefaultStore();
  const firebase = import(/* webpackChunkName: "firebase-auth" */ './firebaseAuth').then((auth) => {
    auth.initialise(config);
    return auth;
  });

  provideAuthActions({
    signUp: (email, password) => firebase.then((auth) => auth.signUp(email, password), auth_unavailable),
    signIn: (email, password) => firebase.then((auth) => auth.signIn(email, password), auth_unavailable),
    signOut: () => firebase.then((auth) => auth.signOut()),
  });

  let unsubscribe = () => {};
  let stopped = false;
  firebase.then(
    (auth) => {
      if (!stopped) unsubscribe = auth.watch((state) => store.set(authAtom, state));
    },
    (error: unknown) => {
      console.error('[netnet] the sign-in service could not load:', error);
      store.set(authAtom, { status: 'anonymous' });
    },
  );
  return () => {
    stopped = true;
    unsubscribe();
  };
}

function auth_unavailable(): never {
  throw new Error('The sign-in service could not load. Check your connection and try again.');
}
