import { matchPath, pageList, type PageEntry } from '@netnet/shared';

// The shell's view of the page table (shared/src/pages.ts): which pages each audience may open,
// and which page a path will end up showing once the guards have had their say.

export type { PageEntry };

export const visitorPages: readonly PageEntry[] = pageList.filter((page) => page.audience === 'visitor');
export const memberPages: readonly PageEntry[] = pageList.filter((page) => page.audience === 'member');

/**
 * The page a path will show, after the guards: a member asking for a visitors' page lands on
 * /browse, a visitor asking for a members' page on the landing page (auth/guards.tsx).
 */
export function pageAt(pathname: string, signedIn: boolean): PageEntry {
  const matches = (entry: PageEntry) => matchPath(entry.path, pathname) !== null;
  const own = signedIn ? memberPages : visitorPages;
  return own.find(matches) ?? own[0]!;
}
