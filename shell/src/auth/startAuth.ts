import { getDefaultStore } from 'jotai';
import { authAtom, provideAuthActions, type AuthState, type RuntimeConfig } from '@netnet/shared';

type FirebaseAuth = typeof import('./firebaseAuth');

// A hint, not a credential: whether this browser had a member signed in last time. Visitors
// then see the landing page at once, and Firebase (the heaviest chunk) loads when the browser is
// idle instead of holding up the first page. A stale hint only costs the usual spinner.
const MEMBER_HINT = 'netnet:member';

function readHint(): boolean {
  try {
    return localStorage.getItem(MEMBER_HINT) === '1';
  } catch {
    return true; // storage refused: wait for Firebase, as without a hint
  }
}

function writeHint(state: AuthState): void {
  try {
    if (state.status === 'authenticated') localStorage.setItem(MEMBER_HINT, '1');
    else localStorage.removeItem(MEMBER_HINT);
  } catch {
    // storage refused: the hint is an optimisation only
  }
}

const whenIdle = (run: () => void) =>
  'requestIdleCallback' in window ? window.requestIdleCallback(run, { timeout: 1500 }) : setTimeout(run, 200);

/**
 * Feeds the shared auth atom from Firebase and provides the sign-in actions to the remotes.
 * Returns the teardown that unsubscribes the listener.
 */
export function startAuth(config: RuntimeConfig): () => void {
  const store = getDefaultStore();
  let firebase: Promise<FirebaseAuth> | null = null;
  const load = () =>
    (firebase ??= import(/* webpackChunkName: "firebase-auth" */ './firebaseAuth').then((auth) => {
      auth.initialise(config);
      return auth;
    }));

  provideAuthActions({
    signUp: (email, password) => load().then((auth) => auth.signUp(email, password), unavailable),
    signIn: (email, password) => load().then((auth) => auth.signIn(email, password), unavailable),
    signOut: () => load().then((auth) => auth.signOut()),
  });

  let unsubscribe = () => {};
  let stopped = false;
  const watch = () =>
    load().then(
      (auth) => {
        if (stopped) return;
        unsubscribe = auth.watch((state) => {
          writeHint(state);
          store.set(authAtom, state);
        });
      },
      (error: unknown) => {
        console.error('[netnet] the sign-in service could not load:', error);
        store.set(authAtom, { status: 'anonymous' });
      },
    );

  if (readHint()) {
    void watch();
  } else {
    store.set(authAtom, { status: 'anonymous' });
    whenIdle(() => void watch());
  }
  return () => {
    stopped = true;
    unsubscribe();
  };
}

function unavailable(): never {
  throw new Error('The sign-in service could not load. Check your connection and try again.');
}
