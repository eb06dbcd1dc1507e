// Where the console is: the address's fragment (#/<environment>, #/<environment>/remote/<remote>,
// #/<environment>/audit?remote=…&actor=…), so the API serves one page and every view can be linked.

export type Route =
  | { page: 'overview'; environment: string }
  | { page: 'remote'; environment: string; remote: string }
  | { page: 'audit'; environment: string; remote: string; actor: string }
  | { page: 'none' };

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [environment, page, remote] = path.split('/').map((part) => decodeURIComponent(part));
  if (!environment || !/^[a-z0-9][a-z0-9-]{0,39}$/.test(environment)) return { page: 'none' };
  if (page === 'remote' && remote) return { page: 'remote', environment, remote };
  if (page === 'audit') {
    const params = new URLSearchParams(query);
    return { page: 'audit', environment, remote: params.get('remote') ?? '', actor: params.get('actor') ?? '' };
  }
  return { page: 'overview', environment };
}

/** The view the address asks for; without one, every remote of the person's first environment. */
export function routeFor(hash: string, environments: string[]): Exclude<Route, { page: 'none' }> {
  const parsed = parseRoute(hash);
  return parsed.page === 'none' ? { page: 'overview', environment: environments[0] ?? 'local' } : parsed;
}

export function auditHash(environment: string, { remote, actor }: { remote: string; actor: string }) {
  const params = new URLSearchParams({ ...(remote ? { remote } : {}), ...(actor ? { actor } : {}) });
  return `#/${environment}/audit${params.size ? `?${params}` : ''}`;
}

/** The sign-in link's secret, if the address carries one (#sign-in=…). */
export const signInSecret = (hash: string): string | null => /^#sign-in=([A-Za-z0-9_-]+)$/.exec(hash)?.[1] ?? null;
