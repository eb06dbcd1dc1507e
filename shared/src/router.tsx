// The router, one instance for the whole page. Every app reaches routing through here. It is
// Netnet's own, with React Router's names and behaviour for the part Netnet uses (declarative
// routes with layouts and params, links, redirects, search params, the history's own state):
// shared singletons are not tree-shaken, and React Router 7 costs every page about 12 KB brotli
// even for this subset, the largest part of what a page needs before it answers
// (docs/architecture.md#composition). Need more of a router? Add it here (and redeploy the shell
// first, like any change to `shared`).
import {
  Children,
  createContext,
  Fragment,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useTransition,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that made this entry carried (`state` of navigate, Link or Navigate). */
  state: unknown;
  key: string;
}

export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export interface NavigateFunction {
  (to: string, options?: NavigateOptions): void;
  (delta: number): void;
}

interface History {
  subscribe(onChange: () => void): () => void;
  snapshot(): { location: Location; navigationType: NavigationType };
  push(path: string, state: unknown): void;
  replace(path: string, state: unknown): void;
  go(delta: number): void;
  /** There is an entry of this site behind the current one (a page opened directly has none). */
  canGoBack(): boolean;
}

const newKey = () => Math.random().toString(36).slice(2, 10);

function parsePath(path: string): Pick<Location, 'pathname' | 'search' | 'hash'> {
  const hashAt = path.indexOf('#');
  const hash = hashAt >= 0 ? path.slice(hashAt) : '';
  const rest = hashAt >= 0 ? path.slice(0, hashAt) : path;
  const searchAt = rest.indexOf('?');
  return {
    pathname: (searchAt >= 0 ? rest.slice(0, searchAt) : rest) || '/',
    search: searchAt >= 0 && searchAt < rest.length - 1 ? rest.slice(searchAt) : '',
    hash: hash === '#' ? '' : hash,
  };
}

const pathOf = ({ pathname, search, hash }: Pick<Location, 'pathname' | 'search' | 'hash'>) => pathname + search + hash;

/** `to` as an absolute path: relative paths and bare searches resolve against `from`. */
function resolve(to: string, from: Location): string {
  if (to.startsWith('/')) return to;
  if (to.startsWith('?') || to.startsWith('#')) return from.pathname + (to.startsWith('#') ? from.search : '') + to;
  const url = new URL(to, `http://netnet${from.pathname.endsWith('/') ? from.pathname : `${from.pathname}/`}`);
  return url.pathname + url.search + url.hash;
}

function createHistory(
  initial: { location: Location; navigationType: NavigationType },
  write: {
    push(path: string, state: unknown): Location;
    replace(path: string, state: unknown): Location;
    go(delta: number): void;
    canGoBack(): boolean;
  },
): History & { set(next: { location: Location; navigationType: NavigationType }): void } {
  let current = initial;
  const listeners = new Set<() => void>();
  const set = (next: typeof current) => {
    current = next;
    listeners.forEach((listener) => listener());
  };
  return {
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    snapshot: () => current,
    push: (path, state) => set({ location: write.push(path, state), navigationType: 'PUSH' }),
    replace: (path, state) => set({ location: write.replace(path, state), navigationType: 'REPLACE' }),
    go: (delta) => write.go(delta),
    canGoBack: () => write.canGoBack(),
    set,
  };
}

interface HistoryEntryState {
  usr?: unknown;
  key?: string;
  idx?: number;
}

/** The browser's history, with React Router's shape of history.state ({ usr, key, idx }). */
function browserHistory(): History {
  const read = (): Location => {
    const { pathname, search, hash } = window.location;
    const entry = (window.history.state ?? {}) as HistoryEntryState;
    return { pathname, search, hash, state: entry.usr ?? null, key: entry.key ?? 'default' };
  };
  let index = ((window.history.state ?? {}) as HistoryEntryState).idx;
  if (index === undefined) {
    index = 0;
    window.history.replaceState({ ...(window.history.state as object | null), idx: index }, '');
  }
  const history = createHistory(
    { location: read(), navigationType: 'POP' },
    {
      push(path, state) {
        index = (index ?? 0) + 1;
        window.history.pushState({ usr: state ?? null, key: newKey(), idx: index }, '', path);
        return read();
      },
      replace(path, state) {
        window.history.replaceState({ usr: state ?? null, key: newKey(), idx: index }, '', path);
        return read();
      },
      go: (delta) => window.history.go(delta),
      canGoBack: () => (index ?? 0) > 0,
    },
  );
  const onPop = () => {
    index = ((window.history.state ?? {}) as HistoryEntryState).idx ?? index;
    history.set({ location: read(), navigationType: 'POP' });
  };
  return {
    ...history,
    subscribe(onChange) {
      window.addEventListener('popstate', onPop);
      const stop = history.subscribe(onChange);
      return () => {
        window.removeEventListener('popstate', onPop);
        stop();
      };
    },
  };
}

type InitialEntry = string | Partial<Location>;

const entryOf = (entry: InitialEntry): Location =>
  typeof entry === 'string'
    ? { ...parsePath(entry), state: null, key: newKey() }
    : { pathname: '/', search: '', hash: '', state: null, key: newKey(), ...entry };

/** History kept in memory: tests, and a page with no address bar. */
function memoryHistory(initialEntries: readonly InitialEntry[], initialIndex?: number): History {
  const entries = (initialEntries.length > 0 ? initialEntries : ['/']).map(entryOf);
  let index = Math.min(Math.max(initialIndex ?? entries.length - 1, 0), entries.length - 1);
  const at = (path: string, state: unknown): Location => ({ ...parsePath(path), state: state ?? null, key: newKey() });
  const history = createHistory(
    { location: entries[index]!, navigationType: 'POP' },
    {
      push(path, state) {
        entries.splice(index + 1, entries.length, at(path, state));
        index += 1;
        return entries[index]!;
      },
      replace(path, state) {
        entries[index] = at(path, state);
        return entries[index]!;
      },
      go(delta) {
        const next = Math.min(Math.max(index + delta, 0), entries.length - 1);
        if (next === index) return;
        index = next;
        history.set({ location: entries[index]!, navigationType: 'POP' });
      },
      canGoBack: () => index > 0,
    },
  );
  return history;
}

interface RouterContextValue {
  location: Location;
  navigationType: NavigationType;
  history: History;
  /** The next page is still loading: the one on screen stays until it is ready. */
  navigating: boolean;
}

const RouterContext = createContext<RouterContextValue | null>(null);

interface RouteContextValue {
  params: Readonly<Record<string, string | undefined>>;
  outlet: ReactNode;
}

const RouteContext = createContext<RouteContextValue>({ params: {}, outlet: null });

function useRouter(): RouterContextValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Routing is used outside a router (BrowserRouter, MemoryRouter or StaticRouter).');
  return router;
}

function Router({ history, children }: { history: History; children?: ReactNode }) {
  const [{ location, navigationType }, setState] = useState(history.snapshot);
  // A navigation renders the next page in a transition, as React Router does: the page on screen
  // stays until the next one is ready, rather than flashing its loading state. Meanwhile the
  // layouts mark it busy (useNavigating), so nobody takes the page still shown for the next one.
  const [navigating, startNavigation] = useTransition();
  useLayoutEffect(() => {
    setState(history.snapshot());
    return history.subscribe(() => startNavigation(() => setState(history.snapshot())));
  }, [history]);
  const value = useMemo(() => ({ location, navigationType, history, navigating }), [location, navigationType, history, navigating]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** The page's router: the address bar and the browser's history. */
export function BrowserRouter({ children }: { children?: ReactNode }) {
  const [history] = useState(browserHistory);
  return <Router history={history}>{children}</Router>;
}

/** A router with its own history in memory (tests). */
export function MemoryRouter({
  children,
  initialEntries = ['/'],
  initialIndex,
}: {
  children?: ReactNode;
  initialEntries?: readonly InitialEntry[];
  initialIndex?: number;
}) {
  const [history] = useState(() => memoryHistory(initialEntries, initialIndex));
  return <Router history={history}>{children}</Router>;
}

/** One request's router on the server: a fixed location, navigation does nothing. */
export function StaticRouter({ location, children }: { location: string | Partial<Location>; children?: ReactNode }) {
  const history = useMemo<History>(() => {
    const snapshot = { location: entryOf(location), navigationType: 'POP' as const };
    return { subscribe: () => () => {}, snapshot: () => snapshot, push: () => {}, replace: () => {}, go: () => {}, canGoBack: () => false };
  }, [location]);
  return <Router history={history}>{children}</Router>;
}

export const useLocation = (): Location => useRouter().location;
/** Whether the next page is still loading after a navigation (the layouts' `aria-busy`). */
export const useNavigating = (): boolean => useRouter().navigating;

/** Whether Back would stay on this site: asked at the moment of going back, not while rendering. */
export function useCanGoBack(): () => boolean {
  const { history } = useRouter();
  return useCallback(() => history.canGoBack(), [history]);
}

export const useNavigationType = (): NavigationType => useRouter().navigationType;

export const useParams = <Params extends Record<string, string | undefined> = Record<string, string | undefined>>(): Readonly<Partial<Params>> =>
  useContext(RouteContext).params as Partial<Params>;

/** The matched child route's element, where a layout route puts it. */
export function Outlet(): ReactNode {
  return useContext(RouteContext).outlet;
}

/** Navigation from an event or an effect (a call made while rendering is ignored, as in React Router). */
export function useNavigate(): NavigateFunction {
  const { history, location } = useRouter();
  const mounted = useRef(false);
  const current = useRef(location);
  useLayoutEffect(() => {
    mounted.current = true;
    current.current = location;
  });
  const navigate = useCallback(
    (to: string | number, options: NavigateOptions = {}) => {
      if (!mounted.current) return;
      if (typeof to === 'number') return history.go(to);
      const path = resolve(to, current.current);
      if (options.replace) history.replace(path, options.state);
      else history.push(path, options.state);
    },
    [history],
  );
  return navigate as NavigateFunction;
}

/** Sends the member to `to` once rendered (a redirect). */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions): null {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}

export interface SetSearchParams {
  (next: URLSearchParams | string | Record<string, string> | ((current: URLSearchParams) => URLSearchParams), options?: NavigateOptions): void;
}

/** The address's query, and a way to change it (a navigation to the same path). */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const current = useRef(search);
  useLayoutEffect(() => {
    current.current = search;
  });
  const set = useCallback<SetSearchParams>(
    (next, options) => {
      const value = new URLSearchParams(typeof next === 'function' ? next(new URLSearchParams(current.current)) : next);
      navigate(`?${value}`, options);
    },
    [navigate],
  );
  return [params, set];
}

// Path patterns, as React Router reads them: `/title/:id`, `*`, case-insensitive, a trailing slash allowed.

export interface PathMatch {
  params: Record<string, string | undefined>;
  pathname: string;
  pattern: string;
}

function compile(pattern: string, end: boolean): [RegExp, string[]] {
  const names: string[] = [];
  let source = `^${pattern
    .replace(/\/*\*?$/, '')
    .replace(/^\/*/, '/')
    .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
    .replace(/\/:([\w-]+)(\?)?/g, (_, name: string, optional?: string) => {
      names.push(name);
      return optional ? '/?([^\\/]+)?' : '/([^\\/]+)';
    })}`;
  if (pattern.endsWith('*')) {
    names.push('*');
    source += pattern === '*' || pattern === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else if (end) source += '\\/*$';
  else if (pattern !== '' && pattern !== '/') source += '(?:(?=\\/|$))';
  return [new RegExp(source, 'i'), names];
}

/** `pattern` against `pathname`: the params, or null when it does not match. */
export function matchPath(pattern: string, pathname: string, end = true): PathMatch | null {
  const [regex, names] = compile(pattern, end);
  const found = pathname.match(regex);
  if (!found) return null;
  const params: Record<string, string | undefined> = {};
  names.forEach((name, i) => {
    params[name] = found[i + 1] === undefined ? undefined : found[i + 1]!.replace(/%2F/g, '/');
  });
  return { params, pathname: found[0], pattern };
}

// Routes: <Route> elements read as a table, ranked the way React Router ranks them.

export interface RouteProps {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

/** A route of a <Routes> table; never rendered itself. */
export function Route(_props: RouteProps): ReactElement | null {
  return null;
}

interface RouteEntry {
  path?: string;
  index: boolean;
  element: ReactNode;
  children: RouteEntry[];
}

function routesOf(children: ReactNode): RouteEntry[] {
  const routes: RouteEntry[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement<RouteProps>(child)) return;
    if (child.type === Fragment) {
      routes.push(...routesOf(child.props.children));
      return;
    }
    const { path, index = false, element = null, children: nested } = child.props;
    routes.push({ path, index, element, children: routesOf(nested) });
  });
  return routes;
}

interface Branch {
  path: string;
  score: number;
  routes: RouteEntry[];
}

const join = (...parts: string[]) => parts.join('/').replace(/\/\/+/g, '/');

function score(path: string, index: boolean): number {
  const segments = path.split('/');
  const splat = segments.includes('*');
  return segments
    .filter((segment) => segment !== '*')
    .reduce(
      (total, segment) => total + (/^:[\w-]+$/.test(segment) ? 3 : segment === '' ? 1 : 10),
      segments.length + (splat ? -2 : 0) + (index ? 2 : 0),
    );
}

function branchesOf(routes: RouteEntry[], parents: RouteEntry[] = [], parentPath = ''): Branch[] {
  const branches: Branch[] = [];
  for (const route of routes) {
    const path = join(parentPath, route.path ?? '');
    const chain = [...parents, route];
    branches.push(...branchesOf(route.children, chain, path));
    // A layout route without a path never matches on its own.
    if (route.path === undefined && !route.index) continue;
    branches.push({ path, score: score(path, route.index), routes: chain });
  }
  return branches;
}

function decodePath(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

/** The first of `routes` (and the layouts around it) that `location` matches, rendered. */
export function Routes({ children }: { children?: ReactNode }): ReactNode {
  const { pathname } = useLocation();
  const parent = useContext(RouteContext);
  const branches = useMemo(() => branchesOf(routesOf(children)).sort((a, b) => b.score - a.score), [children]);
  const decoded = decodePath(pathname);
  for (const branch of branches) {
    const match = matchPath(branch.path || '/', decoded);
    if (!match) continue;
    const params = { ...parent.params, ...match.params };
    return branch.routes.reduceRight<ReactNode>(
      (outlet, route) => (
        <RouteContext.Provider value={{ params, outlet }}>{route.element ?? outlet}</RouteContext.Provider>
      ),
      null,
    );
  }
  return null;
}

// Links.

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>;

export interface LinkProps extends AnchorProps {
  to: string;
  replace?: boolean;
  state?: unknown;
}

const external = (to: string) => /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(to);

/** The href `to` leads to from here. */
export function useHref(to: string): string {
  const location = useLocation();
  return external(to) ? to : resolve(to, location);
}

function useLinkClick(to: string, { replace, state, target }: { replace?: boolean; state?: unknown; target?: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || (target && target !== '_self')) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    // A link to where the member already is replaces the entry rather than repeating it.
    const path = resolve(to, location);
    navigate(path, { replace: replace ?? pathOf(location) === pathOf(parsePath(path)), state });
  };
}

export function Link({ to, replace, state, onClick, target, children, ...rest }: LinkProps) {
  const href = useHref(to);
  const follow = useLinkClick(to, { replace, state, target });
  if (external(to)) {
    return (
      <a {...rest} href={to} target={target} onClick={onClick}>
        {children}
      </a>
    );
  }
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        follow(event);
      }}
    >
      {children}
    </a>
  );
}

export interface NavLinkProps extends Omit<LinkProps, 'className'> {
  className?: string | ((state: { isActive: boolean }) => string | undefined);
  /** Active only on this exact path, not below it. */
  end?: boolean;
}

/** A link that says when it leads to the page on screen: aria-current="page" and the class `active`. */
export function NavLink({ className, end = false, to, ...rest }: NavLinkProps) {
  const { pathname } = useLocation();
  const target = parsePath(useHref(to)).pathname.toLowerCase();
  const here = pathname.toLowerCase();
  const slash = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  const isActive = here === target || (!end && here.startsWith(target) && here.charAt(slash) === '/');
  const classes = typeof className === 'function' ? className({ isActive }) : [className, isActive ? 'active' : null].filter(Boolean).join(' ');
  return <Link {...rest} to={to} className={classes || undefined} aria-current={isActive ? 'page' : undefined} />;
}
