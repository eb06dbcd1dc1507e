import { PassThrough } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { createStore, Provider } from 'jotai';
import { authAtom, ServerCatalogueContext, type AuthState, type PageModule } from '@netnet/shared';
import { createServerCatalogue, StaticRouter } from '@netnet/shared/server';
import { Site } from '../App';
import { loadMemberFrame } from '../layout/memberFrame';
import { LEFT_TO_BROWSER, RenderedPageContext } from '../federation/renderedPage';

// One render of the whole site for one request: the shell frame and the page's area, the area's
// catalogue calls answered on the server. The render has a budget: past it, calls not yet
// answered render as loading (the browser asks for them), and a render still not done after a
// grace period is cut short, its unfinished parts left to the browser.

export interface RenderInput {
  location: { pathname: string; search: string; state?: unknown };
  auth: AuthState;
  /** The area's page and its key, or Page null to leave the area to the browser. */
  page: { key: string; Page: PageModule['default'] | null };
  budgetMs: number;
}

export interface RenderResult {
  html: string;
  /** The catalogue answers the render used, by URL. */
  catalogue: Record<string, unknown>;
  /** Errors thrown while rendering (the area's parts they hit are left to the browser). */
  errors: unknown[];
  /** The render had to be cut short. */
  cutShort: boolean;
}

/** After the budget, how long a render may still take before it is cut short. */
const GRACE_MS = 200;

export async function renderArea({ location, auth, page, budgetMs }: RenderInput): Promise<RenderResult> {
  // A member's page is rendered in the members' frame: its code is here before the render, as the browser's is before it hydrates.
  await loadMemberFrame();
  const store = createStore();
  store.set(authAtom, auth);
  const budget = new AbortController();
  const catalogue = createServerCatalogue(budget.signal);
  const errors: unknown[] = [];
  let cutShort = false;

  return new Promise<RenderResult>((resolve, reject) => {
    const stream = renderToPipeableStream(
      <Provider store={store}>
        <ServerCatalogueContext.Provider value={catalogue}>
          <RenderedPageContext.Provider value={page}>
            <StaticRouter location={location}>
              <Site />
            </StaticRouter>
          </RenderedPageContext.Provider>
        </ServerCatalogueContext.Provider>
      </Provider>,
      {
        // Every boundary inline, in order: React outlines large ones and reveals them with inline
        // scripts, which the site's Content-Security-Policy (no inline script) refuses.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady() {
          clearTimeout(overBudget);
          clearTimeout(cut);
          const chunks: Buffer[] = [];
          const sink = new PassThrough();
          sink.on('data', (chunk: Buffer) => chunks.push(chunk));
          sink.on('end', () => resolve({ html: Buffer.concat(chunks).toString('utf8'), catalogue: catalogue.answers(), errors, cutShort }));
          stream.pipe(sink);
        },
        onShellError(error) {
          clearTimeout(overBudget);
          clearTimeout(cut);
          reject(error);
        },
        onError(error) {
          const digest = (error as { digest?: unknown } | null)?.digest;
          if (digest === LEFT_TO_BROWSER) return LEFT_TO_BROWSER;
          errors.push(error);
          return undefined;
        },
      },
    );
    const overBudget = setTimeout(() => budget.abort(), budgetMs);
    const cut = setTimeout(() => {
      cutShort = true;
      stream.abort(new Error('The render took too long.'));
    }, budgetMs + GRACE_MS);
  });
}
