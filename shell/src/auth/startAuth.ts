import { getDefaultStore } from 'jotai';
import { authAtom, provideAuthActions, type AuthState, type Member, type RuntimeConfig } from '@netnet/shared';
import { whenIdle } from '../boot/whenIdle';
import { startLeaving, stopLeaving } from './returnTo';
import { clearedCookie, idCookie, isId, MEMBER_COOKIE, readIdCookie } from '../rollout/cookies';

type FirebaseAuth = typeof import('./firebaseAuth');

// A hint, not a credential: who was signed in on this browser last time. Pages render at once
// from it, and for a returning member Firebase (the heaviest chunk) loads once the first page had
// its head start instead of holding it up; when it arrives it has the last word. A visitor's
// browser loads it only when they start to sign up or sign in (docs/architecture.md#auth). Member pages hold only public catalogue
// data and this device's own list, so a stale hint shows nothing that is not already here.
// It is a first-party cookie (the uid), so the shell's server renders members' pages from it too
// (rollout/cookies.ts); the shell's first versions kept it in localStorage, which it moves from.
const OLD_HINT = 'netnet:member';

function movedHint(): Member | null {
  try {
    const saved = localStorage.getItem(OLD_HINT);
    localStorage.removeItem(OLD_HINT);
    const member = saved === null ? null : (JSON.parse(saved) as Partial<Member> | null);
    return typeof member?.uid === 'string' && isId(member.uid) ? { uid: member.uid, email: null } : null;
  } catch {
    return null;
  }
}

/** The remembered member, or null for a visitor. */
function readHint(): Member | null {
  const uid = readIdCookie(document.cookie, MEMBER_COOKIE);
  if (uid) return { uid, email: null };
  const moved = movedHint();
  if (moved) writeHint({ status: 'authenticated', member: moved });
  return moved;
}

function writeHint(state: AuthState): void {
  const secure = window.location.protocol === 'https:';
  document.cookie =
    state.status === 'authenticated' && isId(state.member.uid)
      ? idCookie(MEMBER_COOKIE, state.member.uid, { secure })
      : clearedCookie(MEMBER_COOKIE);
}

/**
 * Feeds the shared auth atom from Firebase and provides the sign-in actions to the remotes.
 * `later` schedules Firebase when a hint already answered (boot waits for the first page).
 * Returns the teardown that unsubscribes the listener.
 */
export function startAuth(
  config: RuntimeConfig,
  later: (run: () => void) => void = whenIdle,
  /** The member a server-rendered page was rendered for: hydration must start from the same. */
  renderedFor?: string | null,
): () => void {
  const store = getDefaultStore();
  let firebase: Promise<FirebaseAuth> | null = null;
  const load = () =>
    (firebase ??= import(/* webpackChunkName: "firebase-auth" */ './firebaseAuth').then((auth) => {
      auth.initialise(config);
      return auth;
    }));

  let unsubscribe = () => {};
  let stopped = false;
  let watching = false;
  const watch = () => {
    if (watching) return;
    watching = true;
    void load().then(
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
  };

  // Every action also watches: a member signed in here must reach the auth atom.
  const withAuth = <T,>(act: (auth: FirebaseAuth) => Promise<T>, onFailure?: () => never) => {
    watch();
    return load().then(act, onFailure);
  };
  provideAuthActions({
    signUp: (email, password) => withAuth((auth) => auth.signUp(email, password), unavailable),
    signIn: (email, password) => withAuth((auth) => auth.signIn(email, password), unavailable),
    // The page a member signs out from is theirs, not a return-to page for the next visitor.
    signOut: () => {
      startLeaving();
      return withAuth((auth) => auth.signOut()).catch((error: unknown) => {
        stopLeaving();
        throw error;
      });
    },
    prepare: watch,
  });

  const remembered = renderedFor === undefined ? readHint() : renderedFor && { uid: renderedFor, email: null };
  store.set(authAtom, remembered ? { status: 'authenticated', member: remembered } : { status: 'anonymous' });
  if (remembered) later(watch);
  return () => {
    stopped = true;
    unsubscribe();
  };
}

function unavailable(): never {
  throw new Error('The sign-in service could not load. Check your connection and try again.');
}
