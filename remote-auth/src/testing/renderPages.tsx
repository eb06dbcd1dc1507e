import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type AuthActions,
  MemoryRouter,
  provideAuthActions,
  Route,
  Routes,
  useLocation,
  useNavigationType,
} from '@netnet/shared';
import Landing from '../pages/Landing';
import Login from '../pages/Login';
import { stubCatalogue, resetTestCatalogue } from './fakeCatalogue';

/** Auth actions that succeed quietly unless a test says otherwise. */
export function fakeAuthActions(overrides: Partial<AuthActions> = {}) {
  const actions = {
    signUp: jest.fn<ReturnType<AuthActions['signUp']>, Parameters<AuthActions['signUp']>>(async () => ({
      redirect: false,
    })),
    signIn: jest.fn<ReturnType<AuthActions['signIn']>, Parameters<AuthActions['signIn']>>(async () => null),
    signOut: jest.fn<Promise<void>, []>(async () => undefined),
  };
  Object.assign(actions, overrides);
  provideAuthActions(actions);
  return actions;
}

/** A promise the test settles itself, to look at the page while a call is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

let current = { path: '', navigationType: '' };

function LocationProbe() {
  const location = useLocation();
  current = { path: location.pathname + location.search, navigationType: useNavigationType() };
  return null;
}

interface RenderOptions {
  /** How the catalogue answers the landing hero; by default it never does. */
  catalogue?: Parameters<typeof stubCatalogue>;
}

/** Both public pages as the shell mounts them, starting at `path`; `where()` tells where the router is. */
export function renderPages(path: string, { catalogue = ['pending'] }: RenderOptions = {}) {
  resetTestCatalogue();
  const fetchMock = stubCatalogue(...catalogue);
  const user = userEvent.setup();
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<Landing />} />
        <Route path="/login" element={<Login />} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
  return { user, ...view, fetchMock, where: () => current };
}
