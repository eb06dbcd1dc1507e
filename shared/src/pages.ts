import type { ComponentType } from 'react';
import type { MediaType } from './types';

// The page table: every screen of Netnet, once. The shell's router, guards and preloader, each
// remote's webpack `exposes` and each remote's standalone page are derived from it, so adding a
// page is one entry here plus its module in the remote (docs/architecture.md#the-page-table).
// This file is plain data with type-only imports: webpack configs read it too.

/** Who may open a page: visitors (signed out) or members (signed in). */
export type Audience = 'visitor' | 'member';

/** The four remotes, each owned by one team. */
export const remoteNames = ['remote-auth', 'remote-browse', 'remote-title', 'remote-search'] as const;
export type RemoteName = (typeof remoteNames)[number];

interface PageDefinition {
  /** A React Router path pattern; `:name` segments are the page's params. */
  readonly path: string;
  readonly audience: Audience;
  readonly remote: RemoteName;
  /** The exposed module: `./<module>` in the remote's container, `src/pages/<module>.tsx` in its tree. */
  readonly module: string;
  /** The query parameters the page reads (and href() writes). */
  readonly query?: readonly string[];
}

/** A hero's Play opens a title page with `?play=1`: the page starts its trailer once on arrival. */
export const PLAY_ON_ARRIVAL = { param: 'play', value: '1' } as const;

export const pages = {
  landing: { path: '/', audience: 'visitor', remote: 'remote-auth', module: 'Landing' },
  /** `email` prefills the form (the sign-up form sends an address that already has an account). */
  login: { path: '/login', audience: 'visitor', remote: 'remote-auth', module: 'Login', query: ['email'] },
  browse: { path: '/browse', audience: 'member', remote: 'remote-browse', module: 'Browse' },
  movies: { path: '/movies', audience: 'member', remote: 'remote-browse', module: 'Movies' },
  series: { path: '/series', audience: 'member', remote: 'remote-browse', module: 'Series' },
  myList: { path: '/my-list', audience: 'member', remote: 'remote-browse', module: 'MyList' },
  comingSoon: { path: '/coming-soon', audience: 'member', remote: 'remote-browse', module: 'ComingSoon' },
  downloads: { path: '/downloads', audience: 'member', remote: 'remote-browse', module: 'Downloads' },
  /** `q` is the query: it lives in the address so reload, back and shared links agree. */
  search: { path: '/search', audience: 'member', remote: 'remote-search', module: 'Search', query: ['q'] },
  movie: { path: '/title/:id', audience: 'member', remote: 'remote-title', module: 'MovieDetail', query: [PLAY_ON_ARRIVAL.param] },
  tvShow: { path: '/tv/:id', audience: 'member', remote: 'remote-title', module: 'SeriesDetail', query: [PLAY_ON_ARRIVAL.param] },
} as const satisfies Record<string, PageDefinition>;

export type PageName = keyof typeof pages;
/** One row of the table, with its name. */
export type PageEntry = (typeof pages)[PageName] & { name: PageName };

/** Every page as a list, in table order (the first visitor page and first member page are the defaults). */
export const pageList: readonly PageEntry[] = (Object.keys(pages) as PageName[]).map((name) => ({
  name,
  ...pages[name],
}));

/** Member paths that are not pages of their own: the original app's spelling of Coming soon leads to ours. */
export const redirects: Readonly<Record<string, string>> = { '/comming-soon': pages.comingSoon.path };


// `:id` in '/title/:id' → 'id'
type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;
type QueryOf<N extends PageName> = (typeof pages)[N] extends { query: readonly (infer Q extends string)[] } ? Q : never;

/** What href() takes for a page: its params (required) and its query parameters (optional, empty ones left out). */
export type HrefValues<N extends PageName> = { [K in ParamsOf<(typeof pages)[N]['path']>]: string | number } & {
  [K in QueryOf<N>]?: string | number | null;
};
type HrefArgs<N extends PageName> = [ParamsOf<(typeof pages)[N]['path']>] extends [never]
  ? [values?: HrefValues<N>]
  : [values: HrefValues<N>];

/** The address of a page: `href('movie', { id: 604, play: '1' })` → '/title/604?play=1'. */
export function href<N extends PageName>(name: N, ...[values]: HrefArgs<N>): string {
  const page: PageDefinition = pages[name];
  const given = (values ?? {}) as Record<string, string | number | null | undefined>;
  const path = page.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(given[key])));
  const query = (page.query ?? [])
    .filter((key) => given[key] !== undefined && given[key] !== null && given[key] !== '')
    .map((key) => `${key}=${encodeURIComponent(String(given[key]))}`);
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

/** A title's page by media type: movies at /title/{id}, series at /tv/{id}. */
export const titleHref = (type: MediaType, id: number | string, query: { play?: string } = {}): string =>
  href(type === 'movie' ? 'movie' : 'tvShow', { id, ...query });

/** The modules of one remote's pages. */
export type ModuleOf<R extends RemoteName> = Extract<PageEntry, { remote: R }>['module'];

/**
 * What a remote's page module provides: the contract the shell relies on, in the browser and on
 * its server. A server render needs nothing more: the page's catalogue calls (useCatalogue) are
 * answered on the server (docs/architecture.md#server-rendering).
 */
export interface PageModule {
  /** The page; it reads its params and query with the router's hooks. */
  default: ComponentType;
  /** Warms the catalogue for a path's params before the page renders (on hover, at boot). */
  prefetch?: (params: Readonly<Record<string, string | undefined>>) => void;
}

/**
 * A remote's own list of its page modules, loaded lazily: the type makes the remote implement
 * every page the table gives it, each a PageModule (see each remote's src/pages/index.ts).
 */
export type PageModules<R extends RemoteName> = { readonly [M in ModuleOf<R>]: () => Promise<PageModule> };
