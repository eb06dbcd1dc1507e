// Test helpers: a fake catalogue behind fetch, and a title route rendered as the shell mounts it.
import { render } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import {
  authAtom,
  clearCatalogueCache,
  MemoryRouter,
  Route,
  Routes,
  setRuntimeConfig,
} from '@netnet/shared';
import MovieDetail from '../pages/MovieDetail';
import SeriesDetail from '../pages/SeriesDetail';

export const CATALOGUE = 'http://catalogue.test';

/** Path under /3/ (no query) → body, or a status for an error. */
export type FakeCatalogue = Record<string, unknown>;

export const notFound = { status: 404, body: { success: false, status_code: 34, status_message: 'Not found.' } };

function respond(status: number, body: unknown): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: () => null },
    text: () => Promise.resolve(JSON.stringify(body)),
  } as unknown as Response;
}

export function serveCatalogue(routes: FakeCatalogue): jest.Mock {
  setRuntimeConfig({
    catalogueUrl: CATALOGUE,
    firebase: { apiKey: 'test', authDomain: 'test', projectId: 'demo-netnet' },
    authEmulatorUrl: null,
  });
  clearCatalogueCache();
  const fetchMock = jest.fn((url: string) => {
    const path = new URL(url).pathname.replace(/^\/3\//, '');
    const answer = routes[path];
    if (answer === undefined) return Promise.resolve(respond(notFound.status, notFound.body));
    if (answer && typeof answer === 'object' && 'status' in answer && 'body' in answer) {
      const { status, body } = answer as { status: number; body: unknown };
      return Promise.resolve(respond(status, body));
    }
    return Promise.resolve(respond(200, answer));
  });
  global.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}

export function renderTitleRoute(path: string, uid = 'member-1') {
  const store = createStore();
  store.set(authAtom, { status: 'authenticated', member: { uid, email: null } });
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/title/:id" element={<MovieDetail />} />
          <Route path="/tv/:id" element={<SeriesDetail />} />
          <Route path="/" element={<p>Landing page</p>} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}
