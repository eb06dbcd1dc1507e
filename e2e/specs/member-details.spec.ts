import { test, expect } from '../support/test';
import { newMemberDetails } from '../support/members';
import { test as memberTest } from '../support/memberSession';
import { whenAppRuns } from '../support/navigate';
import { catalogueJson } from '../support/catalogue';

// Its trailers play on their own, as for most members: the suite's default is a member who prefers
// reduced motion (playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

// Smaller things a member notices first: the home trailer's control right after sign-up, the
// home billboard, Back on a page opened directly, search links and text, a missing title.

test('right after sign-up the home trailer’s button says what it will do', async ({ page }) => {
  const member = newMemberDetails();
  await page.goto('/');
  await page.getByLabel('Email address', { exact: true }).fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/browse$/);
  const video = page.getByLabel('Netnet home trailer');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0.5), { timeout: 15_000 }).toBe(true);
  const control = page.getByRole('region', { name: 'Trailer' }).getByRole('button', { name: /trailer$/ });
  await expect(control).toHaveAccessibleName('Pause trailer');
  await control.click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await expect(control).toHaveAccessibleName('Play trailer');
  const at = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  expect(at, 'pausing keeps the place').toBeGreaterThan(0.4);
});

memberTest.describe('a member', () => {
  memberTest('the home billboard names the featured title with its synopsis, Play, More info and My list', async ({ page }) => {
    const { results } = await catalogueJson<{ results: { title: string; overview: string }[] }>('movie/popular');
    const featured = results[0]!;
    await page.goto('/browse');
    const billboard = page.getByRole('region', { name: 'Featured title' });
    await expect(billboard.getByRole('heading', { level: 2 })).toHaveText(featured.title);
    await expect(billboard.getByText(featured.overview)).toBeVisible();
    await expect(billboard.getByRole('link', { name: 'Play' })).toHaveAttribute('href', /\?play=1$/);
    await expect(billboard.getByRole('link', { name: 'More info' })).toHaveAttribute('href', /^\/(title|tv)\/\d+$/);
    await expect(billboard.getByRole('button', { name: 'My list' })).toBeVisible();
  });

  memberTest('Back on a page opened directly goes to /browse', async ({ page }) => {
    await page.goto('/title/604');
    await whenAppRuns(page);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/browse$/);
  });

  memberTest('a malformed search link gets a clear message, not garbled text', async ({ page }) => {
    await page.goto('/search?q=%E0%A4%A');
    await expect(page.getByText('This search link is damaged')).toBeVisible();
    await expect(page.getByText('\uFFFD')).toHaveCount(0);
    await expect(page.getByRole('searchbox', { name: 'Search titles' })).toBeFocused();
  });

  memberTest('an emoji in a search does not hide the results, and each result shows its name once', async ({ page }) => {
    await page.goto('/search?q=' + encodeURIComponent('🎬 the'));
    await expect(page.getByRole('heading', { name: '🎬 the results:' })).toBeVisible();
    const results = page.getByRole('main').getByRole('listitem');
    await expect(results.first()).toBeVisible();
    const first = results.first();
    const name = await first.getByRole('img').getAttribute('alt');
    expect(name).toBeTruthy();
    await expect(first.getByText(name!, { exact: true })).toHaveCount(0);
  });

  memberTest('a title that does not exist leaves for /browse with a notice', async ({ page }) => {
    await page.goto('/title/999999999');
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByRole('status').filter({ hasText: 'We couldn’t find that title' })).toBeVisible();
  });
});

test('the landing form’s backdrop shows no text from its artwork', async ({ page }) => {
  await page.goto('/');
  const backdrop = page.locator('main img').first();
  await expect(backdrop).toBeAttached();
  // Blurred well past legibility, as a background should be behind a form.
  const blur = await backdrop.evaluate((img) => {
    let node: Element | null = img;
    while (node) {
      const match = /blur\((\d+(?:\.\d+)?)px\)/.exec(getComputedStyle(node).filter);
      if (match) return Number(match[1]);
      node = node.parentElement;
    }
    return 0;
  });
  expect(blur).toBeGreaterThanOrEqual(8);
});
