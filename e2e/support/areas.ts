import { expect, type Locator, type Page } from '@playwright/test';

// What each area shows a member once it works, and the shell's texts around it: the faults and
// security suites check what the member sees, not component internals.

export const FALLBACK = 'This part of Netnet is unavailable right now';

/** An area's fallback (docs/architecture.md#composition): readable text and a Retry, inside the shell's frame. */
export const fallback = (page: Page): Locator => page.getByRole('alert').filter({ hasText: FALLBACK });

/**
 * The page after a navigation is on screen: until then the shell keeps the previous one, its
 * fallback included, with the page region marked busy.
 */
export const expectNavigated = (page: Page) => expect(page.getByRole('main')).not.toHaveAttribute('aria-busy', 'true');

export const mainNav = (page: Page): Locator => page.getByRole('navigation', { name: 'Main' });

interface Area {
  /** Where the area lives; a visitor area is opened without signing in. */
  path: string;
  visitor: boolean;
  /** Something only the working area shows. */
  ready(page: Page): Locator;
}

const areas: Record<string, Area> = {
  'remote-auth': {
    path: '/',
    visitor: true,
    ready: (page) => page.getByRole('button', { name: 'Get Started' }),
  },
  'remote-browse': {
    path: '/browse',
    visitor: false,
    ready: (page) => page.getByRole('region', { name: 'Comedy movies', exact: true }),
  },
  'remote-title': {
    path: '/title/604',
    visitor: false,
    ready: (page) => page.getByRole('main').getByRole('heading', { level: 1 }),
  },
  'remote-search': {
    path: '/search',
    visitor: false,
    ready: (page) => page.getByRole('search').getByRole('searchbox', { name: 'Search titles' }),
  },
};

/** The area a remote serves (the site table names the remotes); a remote without one is a gap in this table. */
export function areaOf(remote: string): Area {
  const area = areas[remote];
  if (!area) throw new Error(`e2e/support/areas.ts has no area for ${remote}`);
  return area;
}

/** The shell's frame around a member's area: header and bottom navigation. */
export async function expectMemberFrame(page: Page): Promise<void> {
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  await expect(mainNav(page)).toBeVisible();
}
