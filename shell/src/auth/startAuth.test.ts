import { getDefaultStore } from 'jotai';
import { authAtom, getAuthActions, prepareAuth, type AuthState } from '@netnet/shared';
import { startAuth } from './startAuth';

const mockListeners: ((state: AuthState) => void)[] = [];
const mockUnsubscribe = jest.fn();
// False: the Firebase chunk fails to load, as import() does offline or when a CDN drops it.
let mockFirebaseLoads = true;
jest.mock('./firebaseAuth', () => {
  if (!mockFirebaseLoads) throw new Error('Loading chunk firebase-auth failed.');
  return mockFirebaseAuth;
});
const mockFirebaseAuth = {
  initialise: jest.fn(),
  watch: (listener: (state: AuthState) => void) => {
    mockListeners.push(listener);
    return mockUnsubscribe;
  },
  signIn: jest.fn(async () => null),
  signUp: jest.fn(async () => ({ redirect: false })),
  signOut: jest.fn(async () => {}),
};

const config = {
  catalogueUrl: 'http://localhost:7070',
  firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-netnet' },
  authEmulatorUrl: null,
};
const store = getDefaultStore();
const member: AuthState = { status: 'authenticated', member: { uid: 'u1', email: 'a@example.com' } };

const hintCookie = () => document.cookie.match(/(?:^|; )netnet-member=([^;]*)/)?.[1] ?? null;
const clearHint = () => (document.cookie = 'netnet-member=; Path=/; Max-Age=0');

beforeEach(() => {
  mockFirebaseLoads = true;
  mockFirebaseAuth.initialise.mockClear();
  mockListeners.length = 0;
  localStorage.clear();
  clearHint();
  store.set(authAtom, { status: 'loading' });
});

it('shows visitors the public pages at once and loads Firebase only once they start to sign up or sign in', async () => {
  // Whatever the browser's idle time brings, a visitor who only looks loads no Firebase.
  const stop = startAuth(config, (run) => run());
  expect(store.get(authAtom)).toEqual({ status: 'anonymous' });
  await settle();
  expect(mockFirebaseAuth.initialise).not.toHaveBeenCalled();
  expect(mockListeners).toHaveLength(0);

  prepareAuth();
  prepareAuth(); // every focus and keystroke says so; Firebase is watched once
  await waitForListener();
  expect(mockFirebaseAuth.initialise).toHaveBeenCalledTimes(1);
  mockListeners[0]!(member);
  expect(store.get(authAtom)).toEqual(member);
  // The hint the shell's server reads: the uid only, never the email.
  expect(hintCookie()).toBe('u1');
  expect(document.cookie).not.toContain('example.com');
  stop();
  expect(mockUnsubscribe).toHaveBeenCalled();
});

it('shows a returning member their pages at once, and Firebase has the last word', async () => {
  document.cookie = 'netnet-member=u1; Path=/';
  startAuth(config);
  expect(store.get(authAtom)).toEqual({ status: 'authenticated', member: { uid: 'u1', email: null } });
  await waitForListener();
  mockListeners[0]!(member);
  expect(store.get(authAtom)).toEqual(member);
  // Signed out elsewhere (or the session expired): back to a visitor, and the hint goes.
  mockListeners[0]!({ status: 'anonymous' });
  expect(store.get(authAtom)).toEqual({ status: 'anonymous' });
  expect(hintCookie()).toBeNull();
});

it('moves the hint an earlier version kept in localStorage into the cookie', () => {
  localStorage.setItem('netnet:member', JSON.stringify({ uid: 'u1', email: 'a@example.com' }));
  startAuth(config, () => {});
  expect(store.get(authAtom)).toEqual({ status: 'authenticated', member: { uid: 'u1', email: null } });
  expect(hintCookie()).toBe('u1');
  expect(localStorage.getItem('netnet:member')).toBeNull();
});

it('treats an unreadable hint as a visitor at once, without a spinner, and Firebase still answers', async () => {
  localStorage.setItem('netnet:member', '1'); // an older format
  document.cookie = 'netnet-member="u 1"; Path=/'; // not an id
  startAuth(config);
  expect(store.get(authAtom)).toEqual({ status: 'anonymous' });
  expect(localStorage.getItem('netnet:member')).toBeNull();
  prepareAuth();
  await waitForListener();
  mockListeners[0]!(member);
  expect(store.get(authAtom)).toEqual(member);
  expect(hintCookie()).toBe('u1');
});

it('starts from the member a server-rendered page was rendered for, whatever the cookie says', () => {
  document.cookie = 'netnet-member=u1; Path=/';
  startAuth(config, () => {}, 'u2');
  expect(store.get(authAtom)).toEqual({ status: 'authenticated', member: { uid: 'u2', email: null } });
  startAuth(config, () => {}, null);
  expect(store.get(authAtom)).toEqual({ status: 'anonymous' });
});

it('provides the sign-in actions to the remotes, and a member signed in through them reaches the frame', async () => {
  startAuth(config, () => {});
  await expect(getAuthActions().signIn('a@example.com', 'secret1')).resolves.toBeNull();
  await waitForListener();
  mockListeners[0]!(member);
  expect(store.get(authAtom)).toEqual(member);
});

describe('when the sign-in service cannot load', () => {
  beforeEach(() => {
    mockFirebaseLoads = false;
    jest.resetModules(); // the next import() of the chunk runs the failing factory
    jest.spyOn(console, 'error').mockImplementation(() => {});
  });

  it('shows the public pages instead of a member state it cannot confirm, and logs why', async () => {
    document.cookie = 'netnet-member=u1; Path=/';
    startAuth(config);
    expect(store.get(authAtom)).toEqual({ status: 'authenticated', member: { uid: 'u1', email: null } });
    await waitFor(() => store.get(authAtom).status !== 'authenticated');
    expect(store.get(authAtom)).toEqual({ status: 'anonymous' });
    expect(console.error).toHaveBeenCalledWith('[netnet] the sign-in service could not load:', expect.any(Error));
  });

  it('answers a sign-in or sign-up with a message the form can show', async () => {
    startAuth(config, () => {});
    const message = 'The sign-in service could not load. Check your connection and try again.';
    await expect(getAuthActions().signIn('a@example.com', 'secret1')).rejects.toThrow(message);
    await expect(getAuthActions().signUp('a@example.com', 'secret1')).rejects.toThrow(message);
  });
});

async function waitFor(done: () => boolean) {
  for (let i = 0; i < 50 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
}

/** Long enough for an import() and its idle callbacks to have run, had anything started one. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function waitForListener() {
  for (let i = 0; i < 50 && mockListeners.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(mockListeners).toHaveLength(1);
}
