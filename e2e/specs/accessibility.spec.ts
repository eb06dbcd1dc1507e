import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/test';
import { test as memberTest, asVisitor } from '../support/memberSession';

// axe-core over every page at a phone's size and a laptop's, once each page has what it shows.
// Zero violations of WCAG 2.2 A and AA (and axe's best practices).

const sizes = [
  { name: '390×844', viewport: { width: 390, height: 844 } },
  { name: '1366×768', viewport: { width: 1366, height: 768 } },
];

// axe walks every node of a page; on a busy machine a long page takes it a while.
test.describe.configure({ timeout: 180_000 });

/**
 * axe over the page as it is now. Legacy mode runs it in the page itself (these pages have no
 * frames to gather results from), not again in a blank page of its own: half the time. Soft, so one
 * test lists every page's violations.
 */
async function expectNoViolations(page: Page, label: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .setLegacyMode(true)
    .analyze();
  const found = violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect.soft(found, label).toEqual([]);
}

type Check = [path: string, ready: (page: Page) => Promise<void>];

/** Each page in turn, once it has what it shows. */
async function checkPages(page: Page, pages: Check[]): Promise<void> {
  for (const [path, ready] of pages) {
    await page.goto(path);
    await ready(page);
    await expectNoViolations(page, path);
  }
}

const visitorPages: Check[] = [
  ['/', (page) => expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible()],
  ['/login', (page) => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible()],
];

const memberPages: Check[] = [
  ['/browse', (page) => expect(page.getByRole('region', { name: 'Horror movies', exact: true }).getByRole('link').first()).toBeVisible()],
  ['/movies', (page) => expect(page.getByRole('region', { name: 'Featured movie' }).getByRole('heading')).toBeVisible()],
  ['/series', (page) => expect(page.getByRole('region', { name: 'Featured series' }).getByRole('heading')).toBeVisible()],
  ['/my-list', (page) => expect(page.getByText('Your list is empty.').or(page.getByRole('list', { name: 'Saved titles' }))).toBeVisible({ timeout: 30_000 })],
  ['/coming-soon', (page) => expect(page.getByRole('list', { name: 'Upcoming movies' })).toBeVisible()],
  ['/downloads', (page) => expect(page.getByRole('link', { name: 'Browse titles' })).toBeVisible()],
  ['/search', (page) => expect(page.getByRole('searchbox', { name: 'Search titles' })).toBeVisible()],
  ['/search?q=the', (page) => expect(page.getByRole('main').getByRole('listitem').first()).toBeVisible()],
  ['/search?q=zzzzqqq', (page) => expect(page.getByText('Nada')).toBeVisible()],
  ['/title/604', (page) => expect(page.getByRole('heading', { name: 'More like this' })).toBeVisible()],
  ['/tv/5506', (page) => expect(page.getByRole('heading', { name: 'More like this' })).toBeVisible()],
];

// A few tests per size, each walking several pages in one browser: the two workers share them.
const [browsePages, otherPages] = [memberPages.slice(0, 6), memberPages.slice(6)];

for (const { name, viewport } of sizes) {
  test.describe(`at ${name}`, () => {
    test.use({ ...asVisitor, viewport });
    test("visitors' pages have no axe violations", async ({ page }) => {
      await checkPages(page, visitorPages);
    });
  });

  memberTest.describe(`at ${name}`, () => {
    memberTest.use({ viewport });
    memberTest(`members' browse pages (${browsePages.map(([path]) => path).join(', ')}) have no axe violations`, async ({ page }) => {
      await checkPages(page, browsePages);
    });
    memberTest(`members' search and title pages (${otherPages.map(([path]) => path).join(', ')}) have no axe violations`, async ({ page }) => {
      await checkPages(page, otherPages);
    });
    memberTest('the open share dialog and profile menu have no axe violations', async ({ page }) => {
      await page.goto('/title/604');
      await page.getByRole('button', { name: 'Share' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page, 'the share dialog');
      await page.goto('/downloads');
      await page.getByRole('button', { name: 'Profile menu' }).click();
      await expect(page.getByRole('menu', { name: 'Profiles' })).toBeVisible();
      await expectNoViolations(page, 'the profile menu');
    });
  });
}

// The suite's members prefer reduced motion (playwright.config.ts): no trailer moves until asked.
memberTest('a member who prefers reduced motion: trailers wait for Play, then play', async ({ page }) => {
  for (const [path, name] of [['/browse', 'Trailer'], ['/title/604', /trailer$/]] as const) {
    await page.goto(path);
    const trailer = page.getByRole('region', { name });
    await expect(trailer.getByRole('button', { name: 'Play trailer' })).toBeVisible();
    expect(await trailer.locator('video').evaluate((video: HTMLVideoElement) => video.paused && video.currentTime === 0), `${path}: still`).toBe(true);
    await trailer.getByRole('button', { name: 'Play trailer' }).click();
    await expect(trailer.getByRole('button', { name: 'Pause trailer' })).toBeVisible();
    await expect.poll(() => trailer.locator('video').evaluate((video: HTMLVideoElement) => video.currentTime), { message: `${path}: playing` }).toBeGreaterThan(0);
  }
});
