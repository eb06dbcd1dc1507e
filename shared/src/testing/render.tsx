// A page rendered as the shell mounts it: inside the router, with its own auth state.
import type { ReactNode } from 'react';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { authAtom, type AuthState, MemoryRouter, useLocation, useNavigationType } from '@netnet/shared';
import { anonymous, signedIn } from './member';

export interface RenderPageOptions {
  /** Where the router starts. */
  path?: string;
  /** Who is signed in: a member id, or any auth state; a visitor by default. */
  auth?: string | AuthState;
}

interface Where {
  path: string;
  navigationType: string;
}

function LocationProbe({ report }: { report: (where: Where) => void }) {
  const location = useLocation();
  report({ path: location.pathname + location.search, navigationType: useNavigationType() });
  return null;
}

/**
 * Renders `ui` in a MemoryRouter at `path`, with a fresh jotai store holding `auth`.
 * `where()` tells where the router is; `setAuth` signs in or out as the shell would.
 */
export function renderPage(ui: ReactNode, { path = '/', auth = anonymous }: RenderPageOptions = {}) {
  const store = createStore();
  store.set(authAtom, typeof auth === 'string' ? signedIn(auth) : auth);
  let where: Where = { path, navigationType: 'POP' };
  const user = userEvent.setup();
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        {ui}
        <LocationProbe report={(now) => (where = now)} />
      </MemoryRouter>
    </Provider>,
  );
  const setAuth = (state: AuthState) => act(() => store.set(authAtom, state));
  return { ...view, user, store, setAuth, where: () => where };
}
