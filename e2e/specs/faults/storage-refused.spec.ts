import { test, expect, asVisitor } from '../../support/memberSession';
import { createMember, signIn } from '../../support/members';
import { refuseIndexedDB, type StorageFault } from '../../support/indexedDbFaults';

// IndexedDB refused: My list and Rate say they cannot save here, and nothing else breaks.

test.describe.configure({ mode: 'parallel' });

const LIST_UNAVAILABLE = 'My list can’t be saved on this browser.';
const RATING_UNAVAILABLE = 'Ratings can’t be saved on this browser.';

for (const fault of ['open throws', 'open fails'] as StorageFault[]) {
  test(`Netnet’s database refused (${fault}): My list and Rate explain, the rest works`, async ({ page }) => {
    await refuseIndexedDB(page, fault, { only: 'netnet' });
    await page.goto('/title/604');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toBeVisible();

    const myList = main.getByRole('button', { name: 'My list' });
    await expect(myList).toHaveAccessibleDescription(LIST_UNAVAILABLE);
    await expect(myList).toHaveAttribute('aria-disabled', 'true');
    // aria-disabled keeps it focusable and clickable, so a member who tries is told why.
    await myList.click({ force: true });
    await expect(main.getByRole('status').filter({ hasText: LIST_UNAVAILABLE })).toBeVisible();
    await expect(myList).toHaveAttribute('aria-pressed', 'false');

    const rate = main.getByRole('button', { name: 'Rate' });
    await expect(rate).toHaveAccessibleDescription(RATING_UNAVAILABLE);
    await rate.click({ force: true });
    await expect(main.getByRole('status').filter({ hasText: RATING_UNAVAILABLE })).toBeVisible();

    // The rest of the page is untouched: sharing, credits, similar titles.
    await main.getByRole('button', { name: 'Share' }).click();
    await expect(page.getByRole('dialog', { name: 'Share to ...' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(main.getByRole('region', { name: 'More like this' }).getByRole('link').first()).toBeVisible();

    await page.goto('/my-list');
    await expect(page.getByRole('heading', { level: 1, name: 'My list' })).toBeVisible();
    await expect(page.getByText(/My list can’t be read on this browser/)).toBeVisible();

    await page.goto('/movies');
    const hero = page.getByRole('region', { name: 'Featured movie' });
    await expect(hero.getByRole('button', { name: 'My list' })).toHaveAccessibleDescription(LIST_UNAVAILABLE);
    await expect(page.getByRole('region', { name: 'Animation' }).getByRole('link').first()).toBeVisible();
  });
}

test.describe('every database refused', () => {
  test.use(asVisitor);

  test('signing in still works and lasts (Firebase falls back to localStorage); My list explains', async ({ page }) => {
    await refuseIndexedDB(page, 'open throws');
    const member = await createMember();
    await signIn(page, member);
    await expect(page.getByRole('region', { name: 'Comedy movies', exact: true }).getByRole('link').first()).toBeVisible();

    await page.reload();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();

    await page.goto('/title/604');
    await expect(page.getByRole('main').getByRole('button', { name: 'My list' })).toHaveAccessibleDescription(LIST_UNAVAILABLE);
  });
});
