import { type AuthActions, provideAuthActions, Route, Routes } from '@netnet/shared';
import { type Answer, fakeCatalogue, renderPage } from '@netnet/shared/testing';
import Landing from '../pages/Landing';
import Login from '../pages/Login';

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

interface RenderOptions {
  /** How the catalogue answers the landing hero; by default it never does. */
  catalogue?: Answer;
}

/** Both public pages as the shell mounts them, starting at `path`; `where()` tells where the router is. */
export function renderPages(path: string, { catalogue = 'pending' }: RenderOptions = {}) {
  const { fetchMock } = fakeCatalogue(() => catalogue);
  const view = renderPage(
    <Routes>
      <Route path="/" element={<Landing />} />
      <Route path="/login" element={<Login />} />
    </Routes>,
    { path },
  );
  return { ...view, fetchMock };
}
