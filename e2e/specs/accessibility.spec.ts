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
test.describe.configure({ timeout: 120_000 });

async function expectNoViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const found = violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(found).toEqual([]);
}

const visitorPages: [string, (page: Page) => Promise<void>][] = [
  ['/', (page) => expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible()],
  ['/login', (page) => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible()],
];

const memberPages: [string, (page: Page) => Promise<void>][] = [
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

for (const { name, viewport } of sizes) {
  test.describe(`visitors' pages at ${name}`, () => {
    test.use({ ...asVisitor, viewport });
    for (const [path, ready] of visitorPages) {
      test(`${path} has no axe violations`, async ({ page }) => {
        await page.goto(path);
        await ready(page);
        await expectNoViolations(page);
      });
    }
  });

  memberTest.describe(`members' pages at ${name}`, () => {
    memberTest.use({ viewport });
    for (const [path, ready] of memberPages) {
      memberTest(`${path} has no axe violations`, async ({ page }) => {
        await page.goto(path);
        await ready(page);
        await expectNoViolations(page);
      });
    }
    memberTest('the open share dialog has no axe violations', async ({ page }) => {
      await page.goto('/title/604');
      await page.getByRole('button', { name: 'Share' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page);
    });
    memberTest('the open profile menu has no axe violations', async ({ page }) => {
      await page.goto('/downloads');
      await page.getByRole('button', { name: 'Profile menu' }).click();
      await expect(page.getByRole('menu', { name: 'Profiles' })).toBeVisible();
      await expectNoViolations(page);
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
