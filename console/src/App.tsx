// The console's frame: who is signed in, the environment, the views, the connection to the API and
// what just happened (a live region screen readers announce). An environment outside the token's
// scope is said so once (./OutOfScope.tsx), never read, streamed or polled.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiFailure, call, envPath, setCsrfToken } from './api';
import type { Boot } from './boot';
import type { Change, OpenChange, Outcome } from './ChangeDialog';
import { describePlan } from './format';
import { AuditPage, ChangeDialog, loadLaterViews, RemotePage } from './laterViews';
import { isFinal, useLive, useResource } from './live';
import { OutOfScope } from './OutOfScope';
import { OverviewPage } from './OverviewPage';
import { auditHash, routeFor, signInSecret, type Route } from './route';
import { coveredFirst, mayOpen } from './scope';
import type { AuditView, Overview, Plan, RemoteView, Session } from './types';
import { ViewBoundary } from './ViewBoundary';

type SessionState = { state: 'checking' } | { state: 'signed-out'; message: string } | { state: 'signed-in'; session: Session };

const REMOTES = ['remote-auth', 'remote-browse', 'remote-title', 'remote-search'];

function useHash(initial: string) {
  // A sign-in link's fragment is no place: useSession takes it out of the address.
  const [hash, setHash] = useState(() => (signInSecret(initial) ? '' : initial));
  useEffect(() => {
    const update = () => setHash(window.location.hash);
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return hash;
}

const NOT_SIGNED_IN = 'not signed in: open the sign-in link you were given.';

/** The page's session (the server read the cookie), else a sign-in link's, else the API's answer. */
function useSession(boot: Boot | null, hash: string): [SessionState, (state: SessionState) => void] {
  const [secret] = useState(() => signInSecret(hash));
  const [state, setState] = useState<SessionState>(() => {
    if (secret || !boot) return { state: 'checking' };
    return boot.session ? { state: 'signed-in', session: boot.session } : { state: 'signed-out', message: NOT_SIGNED_IN };
  });
  useEffect(() => {
    if (!secret && boot) {
      if (boot.session) setCsrfToken(boot.session.csrf);
      return;
    }
    // The link's secret leaves the address bar at once: it is used up, and must not be bookmarked or shared.
    if (secret) window.history.replaceState(null, '', window.location.pathname);
    const attempt = secret ? call<Session>('POST', '/console/api/session', { link: secret }) : call<Session>('GET', '/console/api/session');
    attempt
      .then((session) => {
        setCsrfToken(session.csrf);
        setState({ state: 'signed-in', session });
      })
      .catch((error: unknown) => {
        const message = error instanceof ApiFailure && error.status !== 0 ? error.message : 'The control-plane API does not answer; reload when it is back.';
        setState({ state: 'signed-out', message });
      });
  }, [boot, secret]);
  return [state, setState];
}

function Connection({ connection, failing }: { connection: string; failing: boolean }) {
  const lost = connection === 'lost' || failing;
  return (
    <p className={`connection ${lost ? 'lost' : ''}`} role="status">
      {lost ? 'Lost the control-plane API: showing the last figures read; reconnecting by itself…' : connection === 'live' ? 'Live' : 'Connecting…'}
    </p>
  );
}

function Signed({ session, route, first, onEnded }: { session: Session; route: Exclude<Route, { page: 'none' }>; first: Boot['first']; onEnded(message: string): void }) {
  const { environment } = route;
  const overviewPath = `${envPath(environment)}/overview`;
  // The figures the page came with, for the view they were read for.
  const [initial] = useState(() => (first && first.environment === environment ? { path: overviewPath, data: first.overview } : null));
  const { changed, connection } = useLive(environment, { readOnOpen: initial !== null });
  const path =
    route.page === 'overview'
      ? overviewPath
      : route.page === 'remote'
        ? `${envPath(environment)}/remotes/${encodeURIComponent(route.remote)}`
        : `${envPath(environment)}/audit?${new URLSearchParams({ remote: route.remote, actor: route.actor })}`;
  const resource = useResource<Overview | RemoteView | AuditView>(path, changed, { initial });
  const [change, setChange] = useState<Change | null>(null);
  const [notice, setNotice] = useState<{ text: string; conflict: boolean } | null>(null);
  // The control that opened the dialog gets focus back once it closes, confirmed or not; if it can
  // no longer be used (Promote with no canary left), the notice saying what happened gets it.
  const opener = useRef<HTMLElement | null>(null);
  const noticeText = useRef<HTMLParagraphElement>(null);
  const [closed, setClosed] = useState(0);
  useEffect(() => {
    if (!closed) return;
    const element = opener.current;
    if (element?.isConnected && !element.matches(':disabled')) element.focus();
    else noticeText.current?.focus();
  }, [closed]);
  const open: OpenChange = (next, from) => {
    opener.current = from;
    setChange(next);
  };

  useEffect(() => {
    if (resource.error?.status === 401) onEnded(resource.error.message);
  }, [resource.error, onEnded]);

  const planOf = useCallback((data: unknown, remote: string): Plan | null => {
    if (!data || typeof data !== 'object') return null;
    if ('remotes' in data) return (data as Overview).remotes.find((summary) => summary.remote === remote)?.plan ?? null;
    if ('plan' in data) return (data as RemoteView).plan;
    return null;
  }, []);

  async function done(outcome: Outcome | null) {
    const was = change;
    setChange(null);
    if (!outcome) {
      setClosed((count) => count + 1);
      return;
    }
    if (outcome.ended) {
      onEnded(outcome.message);
      return;
    }
    if (!outcome.conflict) {
      setNotice({ text: outcome.message, conflict: false });
      // Focus goes back once the view shows the change (which may disable the control).
      await resource.reload();
      setClosed((count) => count + 1);
      return;
    }
    // Someone else changed it first: read everything again and say what is different now.
    const fresh = await resource.reload();
    let text = `Someone else changed it first, so nothing was changed: ${outcome.message}`;
    if (was && was.kind !== 'pins') text += ` The view has been reloaded: ${was.remote} went from ${describePlan(was.plan)} to ${describePlan(planOf(fresh, was.remote))}.`;
    else text += ' The view has been reloaded.';
    setNotice({ text, conflict: true });
    setClosed((count) => count + 1);
  }

  useEffect(() => {
    const titles = { overview: 'Remotes', remote: route.page === 'remote' ? route.remote : '', audit: 'Audit trail' };
    document.title = `${titles[route.page]} · ${environment} · Netnet release console`;
  }, [route, environment]);

  const data = resource.data;
  // Refused for good (403, 404): said once, in place of the view; nothing is read again by itself.
  const refused = isFinal(resource.error) && resource.error?.status !== 401 ? resource.error : null;
  const heading = route.page === 'overview' ? `Every remote in ${environment}` : route.page === 'remote' ? `${route.remote} in ${environment}` : `Audit trail of ${environment}`;
  return (
    <>
      <nav aria-label="Views" className="views">
        <a href={`#/${environment}`} aria-current={route.page === 'overview' ? 'page' : undefined}>
          Remotes
        </a>
        <a href={auditHash(environment, { remote: '', actor: '' })} aria-current={route.page === 'audit' ? 'page' : undefined}>
          Audit trail
        </a>
        {!refused && <Connection connection={connection} failing={resource.error !== null && resource.error.status === 0} />}
      </nav>
      <div aria-live="polite" className="notices">
        {notice && (
          <div className={`notice ${notice.conflict ? 'conflict' : ''}`}>
            <p ref={noticeText} tabIndex={-1}>
              {notice.text}
            </p>
            <button type="button" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </div>
        )}
      </div>
      {resource.error && resource.error.status !== 0 && resource.error.status !== 401 && data && (
        <p className="refused" role="alert">
          {resource.error.message}
        </p>
      )}
      {!data ? (
        <>
          <h2>{heading}</h2>
          {refused ? (
            <p className="refused" role="alert">
              {refused.message}
            </p>
          ) : (
            <p>Loading…</p>
          )}
        </>
      ) : route.page === 'overview' && 'remotes' in data ? (
        <OverviewPage data={data} onChange={open} />
      ) : route.page === 'remote' && 'chart' in data ? (
        <ViewBoundary>
          <RemotePage data={data} onChange={open} />
        </ViewBoundary>
      ) : route.page === 'audit' && 'entries' in data ? (
        <ViewBoundary>
          <AuditPage data={data} remotes={coveredFirst(session, REMOTES)} onFilter={(filter) => window.location.assign(auditHash(environment, filter))} />
        </ViewBoundary>
      ) : (
        <p>Loading…</p>
      )}
      {change && (
        <ViewBoundary fallback={null}>
          <ChangeDialog environment={environment} change={change} onDone={(outcome) => void done(outcome)} />
        </ViewBoundary>
      )}
      <p className="muted signed">
        Signed in as {session.person} ({session.scope.remotes.join(', ')} · {session.scope.actions.join(', ')}) until {session.expiresAt.slice(11, 16)} UTC.
      </p>
    </>
  );
}

/** The console. `boot`: what the page came with (./boot.ts); `hash`: the address's fragment when it opened. */
export function App({ boot, hash: openedWith }: { boot: Boot | null; hash: string }) {
  const [state, setState] = useSession(boot, openedWith);
  const hash = useHash(openedWith);
  useEffect(() => loadLaterViews(), []);
  const ended = useCallback((message: string) => setState({ state: 'signed-out', message: `Your session has ended: ${message}` }), [setState]);
  let body;
  if (state.state === 'checking') body = <p>Signing in…</p>;
  else if (state.state === 'signed-out') {
    body = (
      <section className="card">
        <h2>Sign in</h2>
        <p role="alert">{state.message}</p>
        <p>Open the one-time sign-in link an administrator made for you (npm run tokens -- create … --person, or npm run tokens -- link &lt;name&gt;).</p>
      </section>
    );
  } else {
    const { session } = state;
    const environments = session.environments ?? [];
    const route = routeFor(hash, environments);
    // Only an environment the token covers joins the menu (a token of every environment may open one with no map yet).
    const reachable = mayOpen(session, route.environment);
    body = (
      <>
        <div className="who">
          <label>
            Environment
            <select value={reachable ? route.environment : ''} onChange={(event) => window.location.assign(`#/${event.target.value}`)}>
              {!reachable && (
                <option value="" disabled>
                  Choose one
                </option>
              )}
              {[...new Set([...environments, ...(reachable ? [route.environment] : [])])].map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </label>
          <button
            type="button"
            onClick={() => {
              void call('DELETE', '/console/api/session').finally(() => setState({ state: 'signed-out', message: 'You signed out.' }));
            }}
          >
            Sign out
          </button>
        </div>
        {reachable ? (
          <Signed key={route.environment} session={session} route={route} first={session === boot?.session ? boot.first : null} onEnded={ended} />
        ) : (
          <OutOfScope session={session} environment={route.environment} />
        )}
      </>
    );
  }
  return (
    <>
      <header className="top">
        <h1>Netnet release console</h1>
      </header>
      <main>{body}</main>
    </>
  );
}
