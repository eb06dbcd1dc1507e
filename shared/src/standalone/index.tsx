// A remote's own dev page (`npm run dev -w remote-title`): its pages from the page table, under the
// same runtime config, router and atoms as in the shell, without the shell. A separate entry point
// of shared (`@netnet/shared/standalone`), so none of it ships in the runtime singleton; it reaches
// the contract through '@netnet/shared' like any remote, so it shares the singleton's state.
// Without the shell, the page links shared's style sheet itself.
import '../styles/index.scss';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { getDefaultStore } from 'jotai';
import {
  authAtom,
  BrowserRouter,
  Link,
  loadRuntimeConfig,
  pageList,
  Route,
  Routes,
  Spinner,
  type PageModule,
  type PageModules,
  type RemoteName,
} from '@netnet/shared';

/** Where a standalone page sends a path with params: the featured title stands in for `:id`. */
const examplePath = (path: string) => path.replace(/:\w+/g, '604');

/**
 * Renders the remote's pages. Member pages run as a fixed local member (sign-in itself lives in
 * the shell); a remote whose pages are all for visitors runs signed out.
 */
export async function renderStandalone<R extends RemoteName>(remote: R, modules: PageModules<R>): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  try {
    await loadRuntimeConfig();
  } catch (error) {
    root.render(<p role="alert">{error instanceof Error ? error.message : 'Configuration failed to load.'}</p>);
    return;
  }
  const own = pageList.filter((page) => page.remote === remote);
  const asMember = own.some((page) => page.audience === 'member');
  getDefaultStore().set(
    authAtom,
    asMember ? { status: 'authenticated', member: { uid: 'standalone-member', email: null } } : { status: 'anonymous' },
  );
  const load: Readonly<Record<string, () => Promise<PageModule>>> = modules;
  const routes = own.map((page) => ({ path: page.path, Page: lazy(() => load[page.module]!()) }));

  root.render(
    <StrictMode>
      <BrowserRouter>
        <nav aria-label="Standalone pages" style={{ padding: 8, fontSize: 12, background: '#333' }}>
          {remote} (standalone):{' '}
          {routes.map(({ path }) => (
            <Link key={path} to={examplePath(path)} style={{ marginRight: 8 }}>
              {path}
            </Link>
          ))}
        </nav>
        <Suspense fallback={<Spinner centered label="Loading the page" />}>
          <Routes>
            {routes.map(({ path, Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
            <Route path="*" element={<p>Pick a page above.</p>} />
          </Routes>
        </Suspense>
      </BrowserRouter>
    </StrictMode>,
  );
}
