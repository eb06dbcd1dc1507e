import type { Page } from '@playwright/test';
import { test, expect } from '../support/test';
import { signInAsNewMember } from '../support/members';
import { catalogueJson } from '../support/catalogue';

// Search against the embedded catalogue: real names in, the right links out, and the query in the URL.

interface Listed {
  id: number;
  title?: string;
  name?: string;
  backdrop_path: string | null;
}

/** A popular title that search can show (it has a backdrop), with its display name. */
async function popular(type: 'movie' | 'tv', fits: (name: string) => boolean = () => true) {
  const { results } = await catalogueJson<{ results: Listed[] }>(`${type}/popular`);
  const titles = results.map((t) => ({ id: t.id, name: (type === 'movie' ? t.title : t.name) ?? '', backdrop: t.backdrop_path }));
  const title = titles.find((t) => t.backdrop && fits(t.name));
  if (!title) throw new Error(`no popular ${type} with a backdrop to search for`);
  return { id: title.id, name: title.name };
}

const searchBox = (page: Page) => page.getByRole('search').getByRole('searchbox', { name: 'Search titles' });

async function search(page: Page, query: string) {
  await searchBox(page).fill(query);
  await searchBox(page).press('Enter');
}

const resultsHeading = (page: Page, query: string) =>
  page.getByRole('main').getByRole('heading', { level: 2, name: `${query} results:`, exact: true });

/** The results list under its heading (the only list in the main area). */
const resultsList = (page: Page) => page.getByRole('main').getByRole('list');

test.beforeEach(async ({ page }) => {
  await signInAsNewMember(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
});

test('finds a real movie and a real series by name, each linking to its own kind of page', async ({ page }) => {
  const movie = await popular('movie');
  const series = await popular('tv');

  await expect(searchBox(page)).toHaveAttribute('placeholder', 'Search for a series, a movie, a genre, etc.');
  await search(page, movie.name);
  await expect(page).toHaveURL((url) => url.pathname === '/search' && url.searchParams.get('q') === movie.name);
  await expect(resultsHeading(page, movie.name)).toBeVisible();
  await expect(searchBox(page)).toHaveValue('');
  const movieLink = resultsList(page).locator(`a[href="/title/${movie.id}"]`);
  await expect(movieLink).toHaveAccessibleName(movie.name);
  await expect(movieLink.getByRole('img', { name: movie.name })).toHaveAttribute('src', /\/t\/p\/w\d+\//);

  await search(page, series.name);
  await expect(resultsHeading(page, series.name)).toBeVisible();
  const seriesLink = resultsList(page).locator(`a[href="/tv/${series.id}"]`);
  await expect(seriesLink).toHaveAccessibleName(series.name);

  await seriesLink.click();
  await expect(page).toHaveURL(new RegExp(`/tv/${series.id}$`));
});

test('a genre word finds titles and a nonsense word finds nothing', async ({ page }) => {
  await search(page, 'comedy');
  await expect(resultsHeading(page, 'comedy')).toBeVisible();
  await expect(resultsList(page).getByRole('link').first()).toBeVisible();
  expect(await resultsList(page).getByRole('link').count()).toBeGreaterThan(1);
  await expect(page.getByText('Nada', { exact: true })).toHaveCount(0);

  await search(page, 'zzqxjvwk');
  await expect(resultsHeading(page, 'zzqxjvwk')).toBeVisible();
  await expect(page.getByText('Nada', { exact: true })).toBeVisible();
  await expect(resultsList(page)).toHaveCount(0);
});

test('markup in a query is shown as text and never runs', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const payload = '<img src=x onerror=alert(1)>';

  await search(page, payload);
  await expect(resultsHeading(page, payload)).toBeVisible();
  await expect(page.getByText('Nada', { exact: true })).toBeVisible();

  const script = '<script>alert(2)</script>';
  await page.goto(`/search?q=${encodeURIComponent(script)}`);
  await expect(resultsHeading(page, script)).toBeVisible();

  await expect(page.locator('img[src="x"], main script')).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test('the query lives in the URL: reload, back, forward and a shared link show the same results', async ({
  page,
}) => {
  await search(page, 'comedy');
  await expect(resultsHeading(page, 'comedy')).toBeVisible();
  await search(page, 'zzqxjvwk');
  await expect(page.getByText('Nada', { exact: true })).toBeVisible();

  await page.reload();
  await expect(resultsHeading(page, 'zzqxjvwk')).toBeVisible();
  await expect(page.getByText('Nada', { exact: true })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/search\?q=comedy$/);
  await expect(resultsHeading(page, 'comedy')).toBeVisible();
  await expect(resultsList(page).getByRole('link').first()).toBeVisible();

  await page.goForward();
  await expect(resultsHeading(page, 'zzqxjvwk')).toBeVisible();

  // A link someone shared, opened in a fresh tab.
  const shared = await page.context().newPage();
  await shared.goto('/search?q=comedy');
  await expect(resultsHeading(shared, 'comedy')).toBeVisible();
  await expect(resultsList(shared).getByRole('link').first()).toBeVisible();
  await shared.close();
});

test('empty queries do nothing and very long ones are cut to a sane length', async ({ page }) => {
  await search(page, '   ');
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByText('Type the name of a movie, a series or a genre.')).toBeVisible();
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveCount(0);

  await search(page, `  ${'a'.repeat(10_000)}  `);
  await expect(resultsHeading(page, 'a'.repeat(100))).toBeVisible();
  expect(new URL(page.url()).searchParams.get('q')).toBe('a'.repeat(100));

  await page.goto(`/search?q=${'b'.repeat(10_000)}`);
  await expect(resultsHeading(page, 'b'.repeat(100))).toBeVisible();
  await expect(page).toHaveURL((url) => url.searchParams.get('q') === 'b'.repeat(100));
});

test('unicode works: an accent typed as two code points still finds the title', async ({ page }) => {
  const movie = await popular('movie', (name) => name.includes('e'));
  // 'e' + combining acute: the page searches the composed 'é', which the catalogue folds to 'e'.
  const decomposed = movie.name.replace('e', 'e\u0301');
  const composed = decomposed.normalize('NFC');
  expect(composed).not.toBe(decomposed);

  await search(page, decomposed);
  await expect(resultsHeading(page, composed)).toBeVisible();
  await expect(page).toHaveURL((url) => url.searchParams.get('q') === composed);
  await expect(resultsList(page).locator(`a[href="/title/${movie.id}"]`)).toHaveAccessibleName(movie.name);
});

test('the grid has two columns on a phone and more on a desktop, and results are reachable by keyboard', async ({
  page,
}) => {
  const columnsInFirstRow = async () => {
    const tops = await resultsList(page)
      .getByRole('listitem')
      .evaluateAll((items) => items.slice(0, 8).map((item) => Math.round(item.getBoundingClientRect().top)));
    return tops.filter((top) => top === tops[0]).length;
  };

  await page.setViewportSize({ width: 375, height: 800 });
  await search(page, 'comedy');
  await expect(resultsList(page).getByRole('listitem').nth(2)).toBeVisible();
  expect(await columnsInFirstRow()).toBe(2);
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(375);

  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await columnsInFirstRow()).toBeGreaterThanOrEqual(4);

  // From the box: the search button, then the first result.
  await searchBox(page).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Search' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(resultsList(page).getByRole('link').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/(title|tv)\/\d+$/);
});
