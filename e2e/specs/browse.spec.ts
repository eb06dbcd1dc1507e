import { test, expect } from '../support/test';
import { catalogueApi, exactly, originOf } from '../support/site';
import { signInAsNewMember } from '../support/members';
import { catalogueJson } from '../support/catalogue';

// Its trailers play on their own, as for most members: the suite's default is a member who prefers
// reduced motion (playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

// The browse area as a member sees it: /browse, /movies, /series, /my-list, /coming-soon, /downloads.

interface Summary {
  id: number;
  title?: string;
  name?: string;
  genre_ids: number[];
  release_date?: string;
}

const firstOf = async (path: string) => (await catalogueJson<{ results: Summary[] }>(path)).results[0]!;

async function genreLine(type: 'movie' | 'tv', ids: number[]): Promise<string> {
  const { genres } = await catalogueJson<{ genres: { id: number; name: string }[] }>(`genre/${type}/list`);
  return ids
    .map((id) => genres.find((genre) => genre.id === id)?.name)
    .filter(Boolean)
    .join(' • ');
}

/** Installed in the page by the /browse test. */
declare function setTabHidden(hidden: boolean): void;

/** The second-level headings of the page, top to bottom: the hero's title name, then the row labels. */
const headings = (page: import('@playwright/test').Page) => page.getByRole('main').getByRole('heading', { level: 2 });

test.describe('browse area', () => {
  test('/browse: the muted looping trailer with its sound toggle, then the home rows', async ({ page }) => {
    await signInAsNewMember(page);
    // Headless Chromium never hides the tab; the page is told so the way a browser would.
    await page.addInitScript(() => {
      (window as unknown as { setTabHidden: (hidden: boolean) => void }).setTabHidden = (hidden) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
        document.dispatchEvent(new Event('visibilitychange'));
      };
    });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toHaveCount(1);

    const video = page.getByLabel('Netnet home trailer');
    await expect(video).toBeVisible();
    expect(await video.evaluate((v: HTMLVideoElement) => ({ muted: v.muted, loop: v.loop, autoplay: v.autoplay, inline: v.playsInline }))).toEqual({
      muted: true,
      loop: true,
      autoplay: true,
      inline: true,
    });
    // The self-hosted clip is served from the remote's own origin, as a hashed asset.
    expect(await video.getAttribute('src')).toMatch(new RegExp(`^${originOf('remote-browse')}/assets/home-trailer\\.[0-9a-f]+\\.mp4$`));

    await page.getByRole('button', { name: 'Activate sound' }).click();
    await expect(page.getByRole('button', { name: 'Mute sound' })).toBeVisible();
    expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
    await page.getByRole('button', { name: 'Mute sound' }).click();
    await expect(page.getByRole('button', { name: 'Activate sound' })).toBeVisible();
    expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);

    // It plays on its own, pauses while the tab is hidden and resumes when the tab is back.
    const paused = () => video.evaluate((v: HTMLVideoElement) => v.paused);
    await expect.poll(paused).toBe(false);
    await page.evaluate(() => setTabHidden(true));
    await expect.poll(paused).toBe(true);
    await page.evaluate(() => setTabHidden(false));
    await expect.poll(paused).toBe(false);
    await expect(page.getByRole('button', { name: 'Pause trailer' })).toBeVisible();

    // The billboard names the featured title (the most popular movie) before the rows.
    const featured = await firstOf('movie/popular');
    await expect(headings(page)).toHaveText([featured.title!, 'Comedy movies', 'Mystery series', 'Action movies', 'Drama series', 'Horror movies']);

    const comedy = await firstOf('discover/movie?with_genres=35');
    const comedyRow = page.getByRole('region', { name: 'Comedy movies', exact: true });
    await expect(comedyRow.getByRole('link').first()).toHaveAttribute('href', `/title/${comedy.id}`);
    await expect(comedyRow.getByRole('link').first().getByRole('img')).toHaveAccessibleName(comedy.title!);

    const mystery = await firstOf('discover/tv?with_genres=9648');
    const mysteryRow = page.getByRole('region', { name: 'Mystery series', exact: true });
    await expect(mysteryRow.getByRole('link').first()).toHaveAttribute('href', `/tv/${mystery.id}`);
    await mysteryRow.getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/tv/${mystery.id}$`));
  });

  test('/movies: the most popular movie as hero, Info to /title/{id}, and the movie rows', async ({ page }) => {
    await signInAsNewMember(page);
    const top = await firstOf('movie/popular');
    await page.goto('/movies');

    await expect(page.getByRole('heading', { level: 1, name: 'Movies' })).toHaveCount(1);
    const hero = page.getByRole('region', { name: 'Featured movie' });
    await expect(hero.getByRole('heading', { name: top.title! })).toBeVisible();
    await expect(hero.getByText(await genreLine('movie', top.genre_ids), { exact: true })).toBeVisible();
    await expect(hero.getByRole('button', { name: 'My list' })).toBeVisible();
    await expect(hero.getByRole('link', { name: 'Play' })).toHaveAttribute('href', `/title/${top.id}?play=1`);
    await expect(hero.getByRole('link', { name: 'Info' })).toHaveAttribute('href', `/title/${top.id}`);
    // 24rem tall (docs/product.md#hero-block).
    expect(Math.round((await hero.boundingBox())!.height)).toBe(384);

    await expect(headings(page)).toHaveText([top.title!, 'Animation', 'Adventure', 'Crime', 'Comedy', 'Drama movies']);
    const drama = await firstOf('discover/movie?with_genres=18');
    await expect(
      page.getByRole('region', { name: 'Drama movies' }).getByRole('link').first(),
    ).toHaveAttribute('href', `/title/${drama.id}`);

    await hero.getByRole('link', { name: 'Info' }).click();
    await expect(page).toHaveURL(new RegExp(`/title/${top.id}$`));
  });

  test('/series: the most popular series as hero with series genre names, Info to /tv/{id}, and the series rows', async ({
    page,
  }) => {
    await signInAsNewMember(page);
    const top = await firstOf('tv/popular');
    await page.goto('/series');

    await expect(page.getByRole('heading', { level: 1, name: 'Series' })).toHaveCount(1);
    const hero = page.getByRole('region', { name: 'Featured series' });
    await expect(hero.getByRole('heading', { name: top.name! })).toBeVisible();
    await expect(hero.getByText(await genreLine('tv', top.genre_ids), { exact: true })).toBeVisible();
    await expect(hero.getByRole('link', { name: 'Info' })).toHaveAttribute('href', `/tv/${top.id}`);

    await expect(headings(page)).toHaveText([top.name!, 'Comedy', 'Mystery', 'Documentary', 'Drama', 'Reality shows']);
    const reality = await firstOf('discover/tv?with_genres=10764');
    await expect(page.getByRole('region', { name: 'Reality shows' }).getByRole('link').first()).toHaveAttribute(
      'href',
      `/tv/${reality.id}`,
    );

    await hero.getByRole('link', { name: 'Info' }).click();
    await expect(page).toHaveURL(new RegExp(`/tv/${top.id}$`));
  });

  test('/my-list: empty at first, then the title saved from a hero, and it can be removed', async ({ page }) => {
    await signInAsNewMember(page);
    await page.goto('/my-list');
    await expect(page.getByRole('heading', { level: 1, name: 'My list' })).toBeVisible();
    await expect(page.getByText('Your list is empty.')).toBeVisible();

    const top = await firstOf('tv/popular');
    await page.goto('/series');
    const myListButton = page.getByRole('region', { name: 'Featured series' }).getByRole('button', { name: 'My list' });
    await expect(myListButton).toHaveAttribute('aria-pressed', 'false');
    await myListButton.click();
    await expect(myListButton).toHaveAttribute('aria-pressed', 'true');

    await page.getByRole('navigation', { name: 'Catalogue' }).getByRole('link', { name: 'My list' }).click();
    const saved = page.getByRole('list', { name: 'Saved titles' });
    await expect(saved.getByRole('link')).toHaveCount(1);
    await expect(saved.getByRole('link')).toHaveAttribute('href', `/tv/${top.id}`);

    await page.getByRole('button', { name: `Remove ${top.name} from My list` }).click();
    await expect(page.getByText('Your list is empty.')).toBeVisible();
  });

  test('/coming-soon: upcoming movies with their release dates in words', async ({ page }) => {
    await signInAsNewMember(page);
    // The catalogue's titles, with release dates of our choosing: 5 March 2099 for the first, a day
    // later for each next one.
    const { results } = await catalogueJson<{ results: Summary[] }>('movie/upcoming');
    const soonest = results[0]!;
    await page.route(new RegExp(`^${exactly(catalogueApi)}/movie/upcoming\\?`), async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { results: Summary[] };
      const dated = body.results.map((title, i) => ({ ...title, release_date: `2099-03-${String(5 + i).padStart(2, '0')}` }));
      await route.fulfill({ response, json: { ...body, results: dated } });
    });
    // Opened inside the app: a page the server rendered would bring the server's own answer.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Coming soon' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Coming soon' })).toBeVisible();

    const first = page.getByRole('list', { name: 'Upcoming movies' }).getByRole('listitem').first();
    await expect(first.getByRole('heading', { name: soonest.title! })).toBeVisible();
    await expect(first.getByText('Coming 5 March 2099')).toBeVisible();
    await expect(first.getByRole('link', { name: soonest.title! })).toHaveAttribute('href', `/title/${soonest.id}`);
  });

  test('/downloads: an honest empty state with a way back to the catalogue', async ({ page }) => {
    await signInAsNewMember(page);
    await page.goto('/downloads');
    await expect(page.getByRole('heading', { level: 1, name: 'Downloads' })).toBeVisible();
    await expect(page.getByText('Downloads are not available on the web yet.')).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Browse titles' }).click();
    await expect(page).toHaveURL(/\/browse$/);
  });

  test('every browse screen fits a phone without sideways scrolling of the page', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signInAsNewMember(page);
    for (const path of ['/browse', '/movies', '/series', '/my-list', '/coming-soon', '/downloads']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page.getByRole('main').getByRole('link').first()).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});
