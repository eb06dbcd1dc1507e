import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { getDefaultStore } from 'jotai';
import { BrowserRouter, Link, Route, Routes } from './router';
import { authAtom } from './auth';
import { loadRuntimeConfig } from './config';

interface StandaloneOptions {
  /** The remote's package name, shown in the dev banner. */
  name: string;
  /** Route path → page, as the shell would mount them. */
  pages: Record<string, ComponentType>;
  /** Pages for members run as a fixed local member; sign-in itself lives in the shell. */
  asMember: boolean;
}

/**
 * A minimal host page so a team can run its remote alone (`npm run dev -w remote-title`):
 * the same runtime config, router and atoms as in the shell, without the shell.
 */
export async function renderStandalone({ name, pages, asMember }: StandaloneOptions): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  try {
    await loadRuntimeConfig();
  } catch (error) {
    root.render(<p role="alert">{error instanceof Error ? error.message : 'Configuration failed to load.'}</p>);
    return;
  }
  getDefaultStore().set(
    authAtom,
    asMember ? { status: 'authenticated', member: { uid: 'standalone-member', email: null } } : { status: 'anonymous' },
  );
  const paths = Object.keys(pages);
  root.render(
    <StrictMode>
      <BrowserRouter>
        <nav aria-label="Standalone pages" style={{ padding: 8, fontSize: 12, background: '#333' }}>
          {name} (standalone):{' '}
          {paths.map((path) => (
            <Link key={path} to={path.replace(':id', '604')} style={{ marginRight: 8 }}>
              {path}
            </Link>
          ))}
        </nav>
        <Routes>
          {Object.entries(pages).map(([path, Page]) => (
            <Route key={path} path={path} element={<Page />} />
          ))}
          <Route path="*" element={<p>Pick a page above.</p>} />
        </Routes>
      </BrowserRouter>
    </StrictMode>,
  );
}
