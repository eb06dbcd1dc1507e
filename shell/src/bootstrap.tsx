// First in the frame's style sheet: the tokens and shared's atoms, which the shell's own rules follow.
import '@netnet/shared/styles';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { boot } from './boot/boot';
import { BootError } from './boot/BootError';
import { readServerState, type ServerState } from './boot/serverState';
import { LEFT_TO_BROWSER } from './federation/renderedPage';
import { readOverrides } from './rollout/overrides';
import { App } from './App';
import { rememberReturnTo } from './auth/returnTo';

const container = document.getElementById('root')!;
/** The server accepted a dev server pin for this browser (its cookie): its state is this browser's own. */
const pinsDevServer = (state: ServerState | null) =>
  Object.values((state?.map as { remotes?: Record<string, { dev?: unknown }> } | undefined)?.remotes ?? {}).some((rollout) => rollout?.dev !== undefined);
// A QA session's pins choose its releases in the browser: it asks for its own state and renders
// afresh. Its token is the server's to read (an HttpOnly cookie), so a page rendered for it is its
// own; a dev server pin is the server's own decision too (docs/releases.md, "Develop against the
// real site"): it rendered the page for it, leaving that area to the browser, so it hydrates.
const offered = readServerState();
const server = Object.keys(readOverrides()).length === 0 || pinsDevServer(offered) ? offered : null;
// A page a busy server left to the browser brings the state without a render: it boots from it, and renders.
const hydrating = server !== null && container.hasChildNodes();

/** The server rendered a guard's answer: the address says so before the router reads it. */
function followServerRedirect({ redirect }: ServerState): void {
  if (!redirect) return;
  // The page the visitor was going to is theirs to return to.
  if (redirect.from) rememberReturnTo(redirect.from);
  // React Router's own shape of history.state, holding the state the server rendered with (auth/guards.tsx, GuardState).
  window.history.replaceState({ usr: redirect.state ?? null, key: 'default', idx: 0 }, '', redirect.to);
}

function onRecoverableError(error: unknown): void {
  // An area the server left to the browser is expected; anything else is a real problem.
  if ((error as { digest?: unknown } | null)?.digest === LEFT_TO_BROWSER) return;
  console.error('[netnet] the page could not take over the server’s render:', error);
}

if (hydrating) followServerRedirect(server);
boot(server).then(
  () => {
    const app = <StrictMode><App /></StrictMode>;
    if (hydrating) hydrateRoot(container, app, { onRecoverableError });
    else createRoot(container).render(app);
  },
  (error: unknown) => {
    console.error('Netnet could not start:', error);
    createRoot(container).render(<BootError error={error} />);
  },
);
