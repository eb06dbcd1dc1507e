import { getDefaultStore } from 'jotai';
import { authAtom, provideAuthActions, type AuthState, type Member, type RuntimeConfig } from '@netnet/shared';
import { whenIdle } from '../boot/whenIdle';

type FirebaseAuth = typeof import('./firebaseAuth');

// A hint, not a credential: who was signed in on this browser last time. Pages render at once
// from it, and Firebase (the heaviest chunk) loads when the browser is idle instead of holding up
// the first page; when it arrives it has the last word. Member pages hold only public catalogue
// data and this device's own list, so a stale hint shows nothing that is not already here.
const MEMBER_HINT = 'netnet:member';

/** The remembered member; null for visitors; undefined when storage is refused (wait for Firebase). */
function readHint(): Member | null | undefined {
  try {
    const saved = localStorage.getItem(MEMBER_HINT);
    if (saved === null) return null;
    const member = JSON.parse(saved) as Partial<Member> | null;
    return typeof member?.uid === 'string' ? { uid: member.uid, email: member.email ?? null } : undefined;
  } catch {
    return undefined;
  }
}

function writeHint(state: AuthState): void {
  try {
    if (state.status === 'authenticated') localStorage.setItem(MEMBER_HINT, JSON.stringify(state.member));
    else localStorage.removeItem(MEMBER_HINT);
  } catch {
    // storage refused: the hint is an optimisation only
  }
}

/**
 * Feeds the shared auth atom from Firebase and provides the sign-in actions to the remotes.
 * `later` schedules Firebase when a hint already answered (boot waits for the first page).
 * Returns the teardown that unsubscribes the listener.
 */
export function startAuth(config: RuntimeConfig, later: (run: () => void) => void = whenIdle): () => void {
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

  const remembered = readHint();
  if (remembered === undefined) {
    void watch(); // no hint to go on: the spinner until Firebase knows
  } else {
    store.set(authAtom, remembered ? { status: 'authenticated', member: remembered } : { status: 'anonymous' });
    later(() => void watch());
  }
  return () => {
    stopped = true;
    unsubscribe();
  };
}

function unavailable(): never {
  throw new Error('The sign-in service could not load. Check your connection and try again.');
}
