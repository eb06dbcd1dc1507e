import type { Page } from '@playwright/test';
import { test, expect } from '../../support/memberSession';
import { breakCatalogue, type CatalogueFault } from '../../support/catalogueFaults';
import { fallback, mainNav } from '../../support/areas';
import { siteUrl } from '../../support/site';
import { navigateInApp, whenAppRuns } from '../../support/navigate';

// The catalogue failing in every way it can: each screen says so in its own words, nothing
// stays on 'Loading...' for good, 429 is retried once and politely, and Retry recovers.
// The faults are the browser's: a page the server rendered comes with the server's catalogue
// answers (docs/architecture.md#server-rendering), so each test opens a page without catalogue
// data and goes on inside the app, whose pages the browser renders and fetches for.

test.describe.configure({ mode: 'parallel' });

const row = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const searchError = (page: Page) => page.getByRole('main').getByRole('alert').filter({ hasText: 'Something went wrong while searching.' });

/** Downloads (no catalogue data), once the app runs there. */
async function startOnDownloads(page: Page): Promise<void> {
  await page.goto('/downloads');
  await whenAppRuns(page);
}

/** From Downloads to /browse through its link, inside the app. */
async function browseFromDownloads(page: Page): Promise<void> {
  await startOnDownloads(page);
  await page.getByRole('main').getByRole('link', { name: 'Browse titles' }).click();
  await expect(page).toHaveURL(/\/browse$/);
}

for (const kind of ['500', 'malformed JSON'] as CatalogueFault[]) {
  test(`${kind}: rows, heroes, search and title pages each fail readably, and Retry recovers`, async ({ page }) => {
    const catalogue = await breakCatalogue(page, kind);

    await browseFromDownloads(page);
    for (const name of ['Comedy movies', 'Mystery series', 'Horror movies']) {
      await expect(row(page, name).getByText('Something went wrong')).toBeVisible();
    }
    await expect(row(page, 'Comedy movies').getByRole('link')).toHaveCount(0);

    await mainNav(page).getByRole('link', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Search titles' }).fill('comedy');
    await page.getByRole('searchbox', { name: 'Search titles' }).press('Enter');
    await expect(searchError(page)).toBeVisible();
    await expect(searchError(page).getByRole('button', { name: 'Retry' })).toBeVisible();

    await mainNav(page).getByRole('link', { name: 'Home' }).click();
    await page.getByRole('navigation', { name: 'Catalogue' }).getByRole('link', { name: 'Movies' }).click();
    await expect(page.getByText('The featured movie could not be loaded.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Featured movie' })).toHaveCount(0);

    // Details that fail lead to / — and a member is then taken on to /browse.
    await navigateInApp(page, '/title/604');
    await expect(page).toHaveURL(/\/browse$/);
    await expect(fallback(page)).toHaveCount(0);
    await expect(row(page, 'Comedy movies').getByText('Something went wrong')).toBeVisible();

    await catalogue.restore();
    await row(page, 'Comedy movies').getByRole('button', { name: 'Retry' }).click();
    await expect(row(page, 'Comedy movies').getByRole('link').first()).toBeVisible();
    await expect(row(page, 'Mystery series').getByText('Something went wrong')).toBeVisible();
  });
}

test('500: a visitor’s landing page keeps its form and shows the hero’s placeholder', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: siteUrl, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const catalogue = await breakCatalogue(page, '500');
  await page.goto('/login');
  await whenAppRuns(page);
  await page.getByRole('banner').getByRole('link', { name: 'Netnet home' }).click();
  await expect(page).toHaveURL(`${siteUrl}/`);
  await expect(page.getByRole('button', { name: 'Get Started' })).toBeEnabled();
  await expect.poll(() => catalogue.hits(/\/3\/movie\/604/)).toBeGreaterThan(0);
  // The featured title never appears, and its placeholder stops pulsing once the answer is in.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole('figure')).toHaveCount(0);
  await expect(page.getByText(/^Featured:/)).toHaveCount(0);
  await context.close();
});

test('timeout: no screen loads for ever — rows, search and a title page give up after 10 s', async ({ page, context }) => {
  const catalogue = await breakCatalogue(context, 'timeout');
  const search = await context.newPage();
  const title = await context.newPage();
  const open = async (where: Page, path: string) => {
    await startOnDownloads(where);
    await navigateInApp(where, path);
  };
  await Promise.all([open(page, '/browse'), open(search, '/search?q=comedy'), open(title, '/title/604')]);

  // While the catalogue says nothing, each screen shows that it is loading...
  await expect(row(page, 'Comedy movies').getByRole('status')).toContainText('Loading Comedy movies');
  await expect(search.getByText('Loading...')).toBeVisible();
  const started = Date.now();

  // ...and then stops waiting (the client's timeout is 10 s).
  await expect(row(page, 'Comedy movies').getByText('Something went wrong')).toBeVisible({ timeout: 15_000 });
  await expect(searchError(search)).toContainText('did not answer within 10 seconds', { timeout: 15_000 });
  await expect(search.getByText('Loading...')).toHaveCount(0);
  await expect(title).toHaveURL(/\/browse$/, { timeout: 15_000 });
  console.log(`the screens gave up on a silent catalogue ${Date.now() - started} ms after they showed they were loading`);
  expect(Date.now() - started, 'the screens waited for the catalogue first').toBeGreaterThan(5_000);

  await catalogue.restore();
  await searchError(search).getByRole('button', { name: 'Retry' }).click();
  await expect(search.getByRole('main').getByRole('list').getByRole('link').first()).toBeVisible();
});

test('429: retried once after Retry-After, never hammered', async ({ page }) => {
  const comedy = /discover\/movie\?with_genres=35&/;
  const mystery = /discover\/tv\?with_genres=9648&/;
  // The comedy row is refused once, then answered; the mystery row is refused every time.
  const once = await breakCatalogue(page, '429', { only: comedy, times: 1, retryAfter: 1 });
  const always = await breakCatalogue(page, '429', { only: mystery, retryAfter: 1 });

  // The page's clock runs in step with real time until the test fast-forwards it (below).
  await page.clock.install();
  await browseFromDownloads(page);
  await expect(row(page, 'Comedy movies').getByRole('link').first()).toBeVisible();
  expect(once.hits(comedy), 'one refusal, one polite retry').toBe(2);
  const [refused, retried] = once.arrivals(comedy) as [number, number];
  console.log(`the retry came ${retried - refused} ms after the 429 (Retry-After: 1)`);
  expect(retried - refused, 'the retry waited for Retry-After (1 s)').toBeGreaterThanOrEqual(900);

  await expect(row(page, 'Mystery series').getByText('Something went wrong')).toBeVisible();
  expect(always.hits(mystery), 'the retry is not repeated').toBe(2);
  // Nothing keeps knocking after giving up, however long the member stays.
  await page.clock.runFor(60_000);
  expect(always.hits(mystery)).toBe(2);
});

test('offline: search says the catalogue cannot be reached, a title leads back, and it all returns online', async ({
  page,
  context,
}) => {
  // Every area is loaded first: offline, only the catalogue calls can fail.
  await page.goto('/title/604');
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await mainNav(page).getByRole('link', { name: 'Home' }).click();
  await expect(row(page, 'Comedy movies').getByRole('link').first()).toBeVisible();
  const poster = row(page, 'Comedy movies').getByRole('link').nth(1);
  const href = await poster.getAttribute('href');
  await mainNav(page).getByRole('link', { name: 'Search' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search titles' })).toBeVisible();

  await context.setOffline(true);
  await mainNav(page).getByRole('link', { name: 'Home' }).click();
  await row(page, 'Comedy movies').locator(`a[href="${href}"]`).click();
  await expect(page).toHaveURL(/\/browse$/);
  await expect(fallback(page)).toHaveCount(0);

  await mainNav(page).getByRole('link', { name: 'Search' }).click();
  await page.getByRole('searchbox', { name: 'Search titles' }).fill('comedy');
  await page.getByRole('searchbox', { name: 'Search titles' }).press('Enter');
  await expect(searchError(page)).toContainText('The catalogue could not be reached. Check your connection and try again.');

  await context.setOffline(false);
  await searchError(page).getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('main').getByRole('list').getByRole('link').first()).toBeVisible();
});
