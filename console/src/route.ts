// Where the console is: the address's fragment (#/<environment>, #/<environment>/remote/<remote>,
// #/<environment>/audit?remote=…&actor=…), so the API serves one page and every view can be linked.

export type Route =
  | { page: 'overview'; environment: string }
  | { page: 'remote'; environment: string; remote: string }
  | { page: 'audit'; environment: string; remote: string; actor: string }
  | { page: 'none' };

const ENVIRONMENT = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** A view at `parts` (the path after the environment), or null when they name none. */
function viewOf(environment: string, [page, remote]: (string | undefined)[], query: string): Exclude<Route, { page: 'none' }> | null {
  if (page === 'remote' && remote) return { page: 'remote', environment, remote };
  if (page === 'audit') {
    const params = new URLSearchParams(query);
    return { page: 'audit', environment, remote: params.get('remote') ?? '', actor: params.get('actor') ?? '' };
  }
  return null;
}

const partsOf = (hash: string) => {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  return { parts: path.split('/').map((part) => decodeURIComponent(part)), query };
};

export function parseRoute(hash: string): Route {
  const { parts, query } = partsOf(hash);
  const [environment, ...rest] = parts;
  if (!environment || !ENVIRONMENT.test(environment)) return { page: 'none' };
  return viewOf(environment, rest, query) ?? { page: 'overview', environment };
}

/**
 * The view the address asks for; without one, every remote of the person's first environment. A
 * view named without its environment (#/audit, #/remote/remote-title), when no environment has
 * that name, is that view of the first environment: what the person meant, as other consoles
 * read a link without its project.
 */
export function routeFor(hash: string, environments: string[]): Exclude<Route, { page: 'none' }> {
  const first = environments[0] ?? 'local';
  const parsed = parseRoute(hash);
  if (parsed.page === 'none') return { page: 'overview', environment: first };
  if (parsed.page === 'overview' && !environments.includes(parsed.environment)) {
    const { parts, query } = partsOf(hash);
    const view = viewOf(first, parts, query);
    if (view) return view;
  }
  return parsed;
}

export function auditHash(environment: string, { remote, actor }: { remote: string; actor: string }) {
  const params = new URLSearchParams({ ...(remote ? { remote } : {}), ...(actor ? { actor } : {}) });
  return `#/${environment}/audit${params.size ? `?${params}` : ''}`;
}

/** The sign-in link's secret, if the address carries one (#sign-in=…). */
export const signInSecret = (hash: string): string | null => /^#sign-in=([A-Za-z0-9_-]+)$/.exec(hash)?.[1] ?? null;
