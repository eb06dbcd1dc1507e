import { test, expect } from '../support/test';
import { createMember, newMemberDetails, signIn } from '../support/members';

// Where a member lands after signing in or up (docs/product.md#guards-and-redirects): the page a
// visitor was sent away from belongs to that visitor, through Sign In and /login?email= too, and
// never to the next member of a tab someone signed out of.

async function signOut(page: import('@playwright/test').Page): Promise<void> {
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out of Netnet' }).click();
  await expect(page).toHaveURL(/\/$/);
}

test('a member who signs out from a search leaves nothing for the next member of the tab', async ({ page }) => {
  const first = await createMember();
  await signIn(page, first);
  await page.goto('/search?q=secret');
  await expect(page.getByRole('heading', { name: 'secret results:' })).toBeVisible();
  await signOut(page);

  const second = newMemberDetails();
  await page.getByLabel('Email address', { exact: true }).fill(second.email);
  await page.getByLabel('Password', { exact: true }).fill(second.password);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/browse$/);
  await expect(page.getByText('secret results:')).toHaveCount(0);
});

test('a member who signs out from a title page and signs in again starts on /browse', async ({ page }) => {
  const member = await createMember();
  await signIn(page, member);
  await page.goto('/title/604');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await signOut(page);
  await signIn(page, member);
  await expect(page).toHaveURL(/\/browse$/);
});

test('a deep link survives the way through Sign In', async ({ page }) => {
  const member = await createMember();
  await page.goto('/tv/5506?play=1');
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email address', { exact: true }).fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/tv\/5506/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('an existing member typing their email on the landing form keeps the deep link, the password and is told why', async ({ page }) => {
  const member = await createMember();
  await page.goto('/title/604');
  await expect(page).toHaveURL(/\/$/);
  await page.getByLabel('Email address', { exact: true }).fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(`/login?email=${encodeURIComponent(member.email)}`);
  await expect(page.getByRole('status').filter({ hasText: 'already has a Netnet account' })).toBeVisible();
  await expect(page.getByLabel('Email address', { exact: true })).toHaveValue(member.email);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue(member.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/title\/604$/);
});
