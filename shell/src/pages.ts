import { matchPath, routes } from '@netnet/shared';
import type { RemoteName } from './federation/remotes';

/** A screen of the site: the remote that renders it and who may see it. */
export interface PageEntry {
  path: string;
  remote: RemoteName;
  /** The exposed module, e.g. 'MovieDetail'. */
  page: string;
}

// The route table (SPEC §2 with DESIGN §8), as data: the router renders it (App.tsx) and the
// preloader reads it to fetch a page's remote before the page is asked for (federation/preload.ts).
export const visitorPages: PageEntry[] = [
  { path: routes.landing, remote: 'remote-auth', page: 'Landing' },
  { path: '/login', remote: 'remote-auth', page: 'Login' },
];

export const memberPages: PageEntry[] = [
  { path: routes.browse, remote: 'remote-browse', page: 'Browse' },
  { path: routes.movies, remote: 'remote-browse', page: 'Movies' },
  { path: routes.series, remote: 'remote-browse', page: 'Series' },
  { path: routes.myList, remote: 'remote-browse', page: 'MyList' },
  { path: routes.comingSoon, remote: 'remote-browse', page: 'ComingSoon' },
  { path: routes.downloads, remote: 'remote-browse', page: 'Downloads' },
  { path: '/search', remote: 'remote-search', page: 'Search' },
  { path: '/title/:id', remote: 'remote-title', page: 'MovieDetail' },
  { path: '/tv/:id', remote: 'remote-title', page: 'SeriesDetail' },
];

/**
 * The page a path will show, after the guards: a member asking for a visitors' page lands on
 * /browse, a visitor asking for a members' page on the landing page (auth/guards.tsx).
 */
export function pageAt(pathname: string, signedIn: boolean): PageEntry | undefined {
  const matches = (entry: PageEntry) => matchPath(entry.path, pathname) !== null;
  const forMembers = memberPages.find(matches);
  const forVisitors = visitorPages.find(matches);
  if (signedIn) return forMembers ?? memberPages[0];
  return forVisitors ?? visitorPages[0];
}
