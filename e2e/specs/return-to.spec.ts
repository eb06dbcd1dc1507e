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

// A visitor who follows a members' link is told on the landing page that it is kept and that
// signing in (or up) opens it: at a phone's, a tablet's, a laptop's and a desktop's width, from
// the server's render and from the app's own guard alike.
const KEPT = 'We’ve kept your link. Sign in or sign up to open it.';
const sizes = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
];

test('a signed-out deep link is said to be kept, on screen and clear of the header, at every width', async ({ page }) => {
  // A visit to / itself keeps nothing and says nothing.
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();
  await expect(page.getByText(KEPT)).toHaveCount(0);

  const takeOverFailures: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') takeOverFailures.push(message.text());
  });
  for (const size of sizes) {
    await page.setViewportSize(size);
    for (const path of ['/title/30', '/tv/1103?play=1']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      const kept = page.getByText(KEPT);
      await expect(kept, `${path} at ${size.width}px`).toBeInViewport({ ratio: 1 });
      const header = (await page.getByRole('banner').boundingBox())!;
      expect((await kept.boundingBox())!.y, `${path} at ${size.width}px: below the header`).toBeGreaterThanOrEqual(header.y + header.height);
    }
  }
  // The page the server rendered with the notice is the one the browser takes over.
  expect(takeOverFailures.filter((text) => text.includes('could not take over'))).toEqual([]);
});

test('the app’s own guard says so too, and signing up opens the kept link', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Get Started' })).toBeEnabled();
  await expect(page.getByText(KEPT)).toHaveCount(0);
  // A members' link followed inside the running app (no page load): the browser's guard answers.
  await page.evaluate(() => {
    window.history.pushState(null, '', '/tv/5506?play=1');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByText(KEPT)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  const member = newMemberDetails();
  await page.getByLabel('Email address', { exact: true }).fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/tv\/5506/);
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: /^(?!Loading)/ })).toBeVisible();
});
