import { getDefaultStore } from 'jotai';
import { authAtom, getAuthActions, type AuthState } from '@netnet/shared';
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

beforeEach(() => {
  mockFirebaseLoads = true;
  mockListeners.length = 0;
  localStorage.clear();
  store.set(authAtom, { status: 'loading' });
});

it('shows visitors the public pages at once and still follows Firebase when it arrives', async () => {
  const stop = startAuth(config);
  expect(store.get(authAtom)).toEqual({ status: 'anonymous' });
  await waitForListener();
  mockListeners[0]!(member);
  expect(store.get(authAtom)).toEqual(member);
  expect(JSON.parse(localStorage.getItem('netnet:member')!)).toEqual({ uid: 'u1', email: 'a@example.com' });
  stop();
  expect(mockUnsubscribe).toHaveBeenCalled();
});

it('shows a returning member their pages at once, and Firebase has the last word', async () => {
  localStorage.setItem('netnet:member', JSON.stringify({ uid: 'u1', email: 'a@example.com' }));
  startAuth(config);
  expect(store.get(authAtom)).toEqual(member);
  await waitForListener();
  // Signed out elsewhere (or the session expired): back to a visitor, and the hint goes.
  mockListeners[0]!({ status: 'anonymous' });
  expect(store.get(authAtom)).toEqual({ status: 'anonymous' });
  expect(localStorage.getItem('netnet:member')).toBeNull();
});

it('waits for Firebase when the hint is unreadable (an older format or refused storage)', async () => {
  localStorage.setItem('netnet:member', '1');
  startAuth(config);
  expect(store.get(authAtom)).toEqual({ status: 'loading' });
  await waitForListener();
  mockListeners[0]!(member);
  expect(store.get(authAtom)).toEqual(member);
});

it('provides the sign-in actions to the remotes', async () => {
  startAuth(config);
  await expect(getAuthActions().signIn('a@example.com', 'secret1')).resolves.toBeNull();
});

describe('when the sign-in service cannot load', () => {
  beforeEach(() => {
    mockFirebaseLoads = false;
    jest.resetModules(); // the next import() of the chunk runs the failing factory
    jest.spyOn(console, 'error').mockImplementation(() => {});
  });

  it('shows the public pages instead of a spinner that never ends, and logs why', async () => {
    localStorage.setItem('netnet:member', '1'); // no usable hint: the spinner waits for Firebase
    startAuth(config);
    expect(store.get(authAtom)).toEqual({ status: 'loading' });
    await waitFor(() => store.get(authAtom).status !== 'loading');
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

async function waitForListener() {
  for (let i = 0; i < 50 && mockListeners.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(mockListeners).toHaveLength(1);
}
