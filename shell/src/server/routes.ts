import { pageList, type PageEntry } from '@netnet/shared';

// The page table's paths as the server matches them, compiled once: React Router's matchPath
// compiles its pattern again on every call, and the server asks up to a dozen of them per request.
// The same answers as matchPath (routes.test.ts checks it against the page table) for the kinds of
// path the table has: plain segments and `:param` segments, case-insensitive, trailing slashes allowed.

const SUPPORTED = /^\/(?:(?:[\w-]+|:[\w-]+)(?:\/(?:[\w-]+|:[\w-]+))*)?$/;

/** A page path's pattern, as matchPath(path, pathname) would use it. */
export function compilePath(path: string): RegExp {
  if (!SUPPORTED.test(path)) {
    throw new Error(`The page table's path "${path}" has a form the server's matcher does not know (plain and :param segments only).`);
  }
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? '/([^\\/]+)' : `/${segment}`));
  return new RegExp(`^${segments.join('') || '/'}\\/*$`, 'i');
}

export interface PageRoutes {
  /** The page a path will show after the guards (shell/src/pages.ts, pageAt). */
  pageAt(pathname: string, signedIn: boolean): PageEntry;
  /** Whether `entry` itself answers `pathname`. */
  shows(entry: PageEntry, pathname: string): boolean;
  /** Whether `pathname` is one of the members' pages. */
  isMemberPath(pathname: string): boolean;
}

export function compileRoutes(pages: readonly PageEntry[] = pageList): PageRoutes {
  const patterns = new Map(pages.map((page) => [page, compilePath(page.path)] as const));
  const shows = (entry: PageEntry, pathname: string) => (patterns.get(entry) ?? compilePath(entry.path)).test(pathname);
  const visitors = pages.filter((page) => page.audience === 'visitor');
  const members = pages.filter((page) => page.audience === 'member');
  return {
    pageAt(pathname, signedIn) {
      const own = signedIn ? members : visitors;
      return own.find((page) => shows(page, pathname)) ?? own[0]!;
    },
    shows,
    isMemberPath: (pathname) => members.some((page) => shows(page, pathname)),
  };
}
