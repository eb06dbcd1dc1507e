import type { Page } from '@playwright/test';
import { test, expect } from '../support/test';
import { signInAsNewMember } from '../support/members';
import { catalogueJson } from '../support/catalogue';
import { readRecords, type StoreName } from '../support/netnetStore';
import { catalogueApi, exactly } from '../support/site';
import { navigateInApp } from '../support/navigate';

// Its trailers play on their own, as for most members: the suite's default is a member who prefers
// reduced motion (playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

// The title area (remote-title): /title/:id and /tv/:id against the embedded catalogue. A test that
// shapes the catalogue's answers in the browser opens its page inside the app: a page the server
// rendered comes with the server's answers (docs/architecture.md#server-rendering).

interface Details {
  id: number;
  title?: string;
  name?: string;
  vote_average: number;
  release_date?: string;
  first_air_date?: string;
  runtime?: number;
  episode_run_time?: number[];
  overview: string;
}

const firstSeries = async () => (await catalogueJson<{ results: Details[] }>('tv/popular')).results[0]!;

/** The member's records for one store, straight from IndexedDB. */
const storedRecords = (page: Page, store: StoreName) =>
  readRecords(page, store) as Promise<Array<{ uid: string; type: string; id: number; name?: string }>>;

/** The page's details call answers with the catalogue's body, `changes` laid over it. */
async function withDetails(page: Page, path: string, changes: Partial<Details>) {
  await page.route(new RegExp(`^${exactly(catalogueApi)}/${path}\\?`), async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as Details), ...changes } });
  });
}

test.describe('title pages', () => {
  test('a movie page shows its details, credits and similar titles', async ({ page }) => {
    await signInAsNewMember(page);
    const movie = await catalogueJson<Details>('movie/604?language=en-US');
    await withDetails(page, 'movie/604', { runtime: 138 });
    await navigateInApp(page, '/title/604');
    const main = page.getByRole('main');

    await expect(main.getByRole('heading', { level: 1 })).toHaveText(movie.title!);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(main.getByText(`${Math.round(movie.vote_average * 10)}% match`)).toBeVisible();
    await expect(main.getByText(movie.release_date!.slice(0, 4), { exact: true })).toBeVisible();
    await expect(main.getByText('2h 18m', { exact: true })).toBeVisible();
    await expect(main.getByText('HD', { exact: true })).toBeVisible();
    await expect(main.getByText(movie.overview)).toBeVisible();
    await expect(main.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

    // Cast: 4 names, 7 after 'more', 4 again after 'less'.
    const credits = await catalogueJson<{ cast: { name: string }[]; crew: { name: string; job: string }[] }>(
      'movie/604/credits?language=en-US',
    );
    const castLine = main.locator('p', { hasText: 'Cast:' });
    await expect(castLine).toContainText(credits.cast.slice(0, 4).map((p) => p.name).join(', '));
    // The catalogue gives every title 8 to 14 cast members: a shorter cast would leave 'more' untested.
    expect(credits.cast.length).toBeGreaterThan(7);
    await expect(castLine).not.toContainText(credits.cast[4]!.name);
    await castLine.getByRole('button', { name: 'more cast' }).click();
    await expect(castLine).toContainText(credits.cast.slice(0, 7).map((p) => p.name).join(', '));
    await expect(castLine.getByRole('button', { name: 'less cast' })).toHaveAttribute('aria-expanded', 'true');
    await castLine.getByRole('button', { name: 'less cast' }).click();
    await expect(castLine).not.toContainText(credits.cast[4]!.name);
    const directors = credits.crew.filter((p) => p.job === 'Director').map((p) => p.name);
    await expect(main.locator('p', { hasText: /Directors?:/ })).toContainText(directors.slice(0, 4).join(', '));

    const similar = main.getByRole('region', { name: 'More like this' });
    await expect(similar.getByRole('link')).toHaveCount(12);
    await expect(similar.getByRole('link').first()).toHaveAttribute('href', /^\/title\/\d+$/);
    await expect(main.getByRole('region', { name: 'Popular movies' }).getByRole('link').first()).toBeVisible();

    await main.getByRole('button', { name: 'Download' }).click();
    await expect(main.getByRole('status').filter({ hasText: 'Downloads aren’t available on the web' })).toBeVisible();
  });

  test('the self-hosted clip plays behind play/pause and mute controls', async ({ page }) => {
    await signInAsNewMember(page);
    await page.goto('/title/604');
    const trailer = page.getByRole('region', { name: /trailer$/ });
    const toggle = trailer.getByRole('button', { name: 'Pause trailer' });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveCSS('opacity', '0');
    const video = trailer.locator('video');
    await expect(video).toHaveJSProperty('muted', true);
    await expect(video).toHaveJSProperty('loop', true);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);

    await trailer.getByRole('button', { name: 'Activate sound' }).click();
    await expect(video).toHaveJSProperty('muted', false);
    await expect(trailer.getByRole('button', { name: 'Pause trailer' })).toBeVisible();

    await toggle.click();
    await expect(trailer.getByRole('button', { name: 'Play trailer' })).toHaveCSS('opacity', '1');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);

    // Play in the details block starts the trailer again.
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(trailer.getByRole('button', { name: 'Pause trailer' })).toBeAttached();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  });

  test('the poster stands in when no trailer can play, without console errors', async ({ page }) => {
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await signInAsNewMember(page);
    const movie = await catalogueJson<Details>('movie/604?language=en-US');

    // A YouTube trailer whose player script cannot load (as with no internet).
    await page.route('**/3/movie/604/videos*', (route) =>
      route.fulfill({
        json: { id: 604, results: [{ id: 'y', key: 'dQw4w9WgXcQ', name: 'Trailer', site: 'YouTube', type: 'Trailer' }] },
      }),
    );
    await page.route('https://www.youtube.com/**', (route) => route.abort('internetdisconnected'));
    await navigateInApp(page, '/title/604');
    const trailer = page.getByRole('region', { name: /trailer$/ });
    await expect(trailer.getByRole('img', { name: `${movie.title} poster` })).toBeVisible();
    await expect.poll(() => page.locator('script[src="https://www.youtube.com/iframe_api"]').count()).toBe(0);
    await expect(trailer.getByRole('button')).toHaveCount(0);

    // No videos at all, for a title this page has not asked about yet.
    const other = (await catalogueJson<{ results: Details[] }>('movie/popular')).results.find((title) => title.id !== 604)!;
    await page.route(`**/3/movie/${other.id}/videos*`, (route) => route.fulfill({ json: { id: other.id, results: [] } }));
    await navigateInApp(page, `/title/${other.id}`);
    await expect(page.getByRole('img', { name: `${other.title} poster` })).toBeVisible();
    await expect(page.getByRole('region', { name: /trailer$/ }).locator('video, iframe')).toHaveCount(0);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(page.getByText(`There’s no trailer for ${other.title} to play.`)).toBeVisible();

    // The browser itself reports the refused script as a failed resource; the page logs nothing.
    expect(consoleErrors.filter((text) => !text.startsWith('Failed to load resource: net::'))).toEqual([]);
  });

  test('My list and Rate survive a reload, per member and media type', async ({ page }) => {
    await signInAsNewMember(page);
    await page.goto('/title/604');
    const myList = page.getByRole('button', { name: 'My list' });
    const rate = page.getByRole('button', { name: 'Rate' });
    await expect(myList).toHaveAttribute('aria-disabled', 'false');
    await expect(myList).toHaveAttribute('aria-pressed', 'false');
    await myList.click();
    await rate.click();
    await expect(myList).toHaveAttribute('aria-pressed', 'true');
    await expect(rate).toHaveAttribute('aria-pressed', 'true');
    // Both are unavailable while their writes are under way; a reload waits for them to settle.
    await expect(myList).toHaveAttribute('aria-disabled', 'false');
    await expect(rate).toHaveAttribute('aria-disabled', 'false');

    await page.reload();
    await expect(page.getByRole('button', { name: 'My list' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Rate' })).toHaveAttribute('aria-pressed', 'true');
    const titles = await storedRecords(page, 'titles');
    expect(titles).toHaveLength(1);
    expect(titles[0]).toMatchObject({ type: 'movie', id: 604 });
    expect(await storedRecords(page, 'rated')).toEqual([{ uid: titles[0]!.uid, type: 'movie', id: 604 }]);

    // The series page keeps its own records.
    const series = await firstSeries();
    await page.goto(`/tv/${series.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(series.name!);
    await expect(page.getByRole('button', { name: 'My list' })).toHaveAttribute('aria-disabled', 'false');
    await expect(page.getByRole('button', { name: 'My list' })).toHaveAttribute('aria-pressed', 'false');
    await page.getByRole('button', { name: 'My list' }).click();
    await expect(page.getByRole('button', { name: 'My list' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'My list' }).click();
    await expect(page.getByRole('button', { name: 'My list' })).toHaveAttribute('aria-pressed', 'false');
    expect((await storedRecords(page, 'titles')).map((t) => `${t.type}/${t.id}`)).toEqual(['movie/604']);
  });

  test('a series page uses its own details and links', async ({ page }) => {
    await signInAsNewMember(page);
    const summary = await firstSeries();
    const series = await catalogueJson<Details>(`tv/${summary.id}?language=en-US`);
    await withDetails(page, `tv/${series.id}`, { episode_run_time: [60] });
    await navigateInApp(page, `/tv/${series.id}`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(series.name!);
    await expect(main.getByText(series.first_air_date!.slice(0, 4), { exact: true })).toBeVisible();
    await expect(main.getByText('1h', { exact: true })).toBeVisible();
    const similar = main.getByRole('region', { name: 'More like this' });
    await expect(similar.getByRole('link').first()).toHaveAttribute('href', /^\/tv\/\d+$/);
    await expect(main.getByRole('region', { name: 'Popular series' }).getByRole('link').first()).toHaveAttribute(
      'href',
      /^\/tv\/\d+$/,
    );
  });

  test('the share overlay offers five networks and opens a centred popup', async ({ page, context }) => {
    await signInAsNewMember(page);
    const movie = await catalogueJson<Details>('movie/604?language=en-US');
    // Offline the networks cannot answer; the popup's address is what matters.
    await context.route(/^https:\/\/(web|api)\.whatsapp\.com\//, (route) => route.fulfill({ body: 'shared' }));
    await page.goto('/title/604');
    const share = page.getByRole('button', { name: 'Share' });
    await share.click();

    const dialog = page.getByRole('dialog', { name: 'Share to ...' });
    await expect(dialog).toBeVisible();
    for (const network of ['WhatsApp', 'Telegram', 'Line', 'LinkedIn', 'Facebook']) {
      await expect(dialog.getByRole('button', { name: network })).toBeVisible();
    }
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('button', { name: 'Facebook' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(share).toBeFocused();

    await share.click();
    const popupOpened = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'WhatsApp' }).click();
    const popup = await popupOpened;
    const url = new URL(popup.url());
    expect(url.origin + url.pathname).toBe('https://web.whatsapp.com/send');
    expect(url.searchParams.get('text')).toBe(`Seen "${movie.title}" on Netnet yet? ${page.url()}`);
    await expect(dialog).toHaveCount(0);
    // WhatsApp's popup is 550x400 (docs/product.md#limits-and-constants).
    expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([550, 400]);
    await popup.close();

    await share.click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('bad and unknown ids lead back to /browse', async ({ page }) => {
    await signInAsNewMember(page);
    for (const path of ['/title/abc', '/tv/12x', '/title/0', '/title/987654321']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/browse$/);
    }
  });

  test('fits a phone screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await signInAsNewMember(page);
    await page.goto('/title/604');
    await expect(page.getByRole('region', { name: 'More like this' }).getByRole('link')).toHaveCount(12);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const trailerBox = await page.getByRole('region', { name: /trailer$/ }).boundingBox();
    expect(trailerBox?.height).toBe(160);
  });
});
