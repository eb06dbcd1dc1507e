import { test, expect } from '../support/memberSession';
import { whenAppRuns } from '../support/navigate';

// Page changes a screen reader can follow (docs/product.md#frame-headers-and-navigation): each page
// has its own document title, and after a link is followed focus lands on the new page's heading.

test('each page has its own document title', async ({ page }) => {
  const titled: [string, RegExp][] = [
    ['/browse', /^Home — Netnet$/],
    ['/movies', /^Movies — Netnet$/],
    ['/my-list', /^My list — Netnet$/],
    ['/coming-soon', /^Coming soon — Netnet$/],
    ['/downloads', /^Downloads — Netnet$/],
    ['/search', /^Search — Netnet$/],
    ['/search?q=the', /^Search: the — Netnet$/],
  ];
  for (const [path, title] of titled) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(title);
  }
  await page.goto('/title/604');
  const name = await page.getByRole('heading', { level: 1 }).textContent();
  await expect(page).toHaveTitle(`${name} — Netnet`);
});

test('following a link moves focus to the new page’s heading', async ({ page }) => {
  await page.goto('/browse');
  await whenAppRuns(page);
  await page.getByRole('link', { name: 'Coming soon' }).first().click();
  await expect(page).toHaveURL(/\/coming-soon$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Coming soon' })).toBeFocused();
  await expect(page).toHaveTitle('Coming soon — Netnet');

  // A title page: focus waits for the title's own heading, not the loading one.
  await page.getByRole('main').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/title\/\d+$/);
  const heading = page.getByRole('main').getByRole('heading', { level: 1 });
  await expect(heading).toBeFocused();
  await expect(heading).not.toHaveText('Loading title');
});

test('a skip link leads past the header to the page, and a row is one Tab stop', async ({ page }) => {
  await page.goto('/browse');
  await whenAppRuns(page);
  await expect(page.getByRole('region', { name: 'Comedy movies', exact: true }).getByRole('link').nth(5)).toBeAttached();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  // The first Tab after the skip is inside the page, past the header.
  await page.keyboard.press('Tab');
  const inMain = () => page.evaluate(() => Boolean(document.activeElement?.closest('main')));
  expect(await inMain()).toBe(true);

  const comedy = page.getByRole('region', { name: 'Comedy movies', exact: true });
  await comedy.getByRole('link').first().focus();
  await page.keyboard.press('ArrowRight');
  const second = comedy.getByRole('link').nth(1);
  await expect(second).toBeFocused();
  // Tab leaves the row from wherever the arrows left focus.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('section')?.getAttribute('aria-labelledby'))).not.toBe(
    await comedy.getAttribute('aria-labelledby'),
  );
  // Shift+Tab comes back to the poster the member was on.
  await page.keyboard.press('Shift+Tab');
  await expect(second).toBeFocused();
});
