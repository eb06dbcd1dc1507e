import { test, expect } from '../support/test';
import { createMember, newMemberDetails, setEnumerationProtection, signIn } from '../support/members';
import { siteUrl } from '../support/site';

// Sign-up, sign-in, guards and sign-out against the real Firebase SDK and the Auth emulator.

test('a new visitor signs up on the landing page and lands on /browse', async ({ page }) => {
  const member = newMemberDetails();
  await page.goto('/');
  await expect(page.getByText('Unlimited movies, TV shows, and more.')).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'Ready to watch? Enter your email to create or restart your membership.' }),
  ).toBeVisible();
  await page.getByLabel('Email address', { exact: true }).fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/browse$/);

  // The session survives a reload.
  await page.reload();
  await expect(page).toHaveURL(/\/browse$/);
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
});

test('a visitor who only looks loads no sign-in service; starting on the form loads it', async ({ page }) => {
  const signInService: string[] = [];
  page.on('request', (request) => {
    if (/firebase/i.test(new URL(request.url()).pathname)) signInService.push(request.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Unlimited movies, TV shows, and more.' })).toBeVisible();
  // Well past the first page's head start and the idle time after it.
  await page.waitForTimeout(5000);
  expect(signInService).toEqual([]);

  await page.getByLabel('Email address', { exact: true }).focus();
  await expect.poll(() => signInService.length).toBeGreaterThan(0);
});

test('signing up with an existing email continues to sign-in with the email prefilled', async ({ page }) => {
  const member = await createMember();
  await page.goto('/');
  await page.getByLabel('Email address', { exact: true }).fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill('another-password');
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(`/login?email=${encodeURIComponent(member.email)}`);
  await expect(page.getByLabel('Email address', { exact: true })).toHaveValue(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/browse$/);
});

test('the forms validate on first touch with the exact messages', async ({ page }) => {
  await page.goto('/login');
  const email = page.getByLabel('Email address', { exact: true });
  const password = page.getByLabel('Password', { exact: true });
  await email.focus();
  await password.focus();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await email.fill('not-an-email');
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await password.fill('12345');
  await email.focus();
  await expect(page.getByText('Password should be between 6 and 60 characters')).toBeVisible();
  await password.fill('      ');
  await expect(page.getByText('Password is required')).toBeVisible();
});

test.describe('sign-in errors', () => {
  test.describe.configure({ mode: 'serial' });
  test.afterAll(() => setEnumerationProtection(false));

  test('without email-enumeration protection: wrong password and unknown email have their own messages', async ({
    page,
  }) => {
    await setEnumerationProtection(false);
    const member = await createMember();
    await signInExpectingAlert(page, member.email, 'wrong-password-1', 'Incorrect password. Please try again');

    const unknown = newMemberDetails();
    await signInExpectingAlert(
      page,
      unknown.email,
      unknown.password,
      "Sorry, we can't find an account with this email address. Please try again or create a new account.",
    );
    await expect(page.getByRole('alert').getByRole('link')).toHaveAttribute('href', '/');
    // Nothing typed is lost.
    await expect(page.getByLabel('Email address', { exact: true })).toHaveValue(unknown.email);
  });

  test('with protection on, both cases get one clear combined message', async ({ page }) => {
    await setEnumerationProtection(true);
    const member = await createMember();
    await signInExpectingAlert(page, member.email, 'wrong-password-1', /Incorrect email or password/);
    await signInExpectingAlert(page, newMemberDetails().email, 'whatever-1', /Incorrect email or password/);
    await expect(page.getByRole('alert').getByRole('link')).toHaveAttribute('href', '/');
  });
});

test('a signed-in member is kept away from the public screens and can sign out', async ({ page }) => {
  const member = await createMember();
  await signIn(page, member);
  await page.goto('/');
  await expect(page).toHaveURL(/\/browse$/);

  await page.getByRole('button', { name: 'Profile menu' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Ana', 'Ben', 'Kids', 'Sign out of Netnet']);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);

  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out of Netnet' }).click();
  await expect(page).toHaveURL(`${siteUrl}/`);
  await page.goto('/browse');
  await expect(page).toHaveURL(`${siteUrl}/`);
});

test('a deep link opened while signed out continues there after signing up', async ({ page }) => {
  const member = newMemberDetails();
  await page.goto('/my-list');
  await expect(page).toHaveURL(`${siteUrl}/`);
  await page.getByLabel('Email address', { exact: true }).fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/my-list$/);
});

async function signInExpectingAlert(
  page: import('@playwright/test').Page,
  email: string,
  password: string,
  message: string | RegExp,
) {
  await page.goto('/login');
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toContainText(message);
  await expect(page).toHaveURL(/\/login/);
}
