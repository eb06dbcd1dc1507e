import type { Page } from '@playwright/test';
import { test, expect } from '../../support/test';
import { createMember, newMemberDetails } from '../../support/members';
import { authEmulatorUrl } from '../../support/site';

// The sign-in service (the Firebase Auth emulator here) unreachable at the moment a visitor
// submits: a readable message, nothing typed is lost, and the same form works once it is back.

const AUTH_SERVICE = `${authEmulatorUrl}/**`;
const UNREACHABLE = 'We couldn’t reach the sign-in service. Check your connection and try again.';

const email = (page: Page) => page.getByLabel('Email address', { exact: true });
const password = (page: Page) => page.getByLabel('Password', { exact: true });

async function cutAuthService(page: Page): Promise<() => number> {
  let attempts = 0;
  await page.route(AUTH_SERVICE, (route) => {
    attempts++;
    return route.abort('connectionrefused');
  });
  return () => attempts;
}

const forms = [
  { name: 'sign-in', path: '/login', submit: 'Sign In', member: () => createMember() },
  { name: 'sign-up', path: '/', submit: 'Get Started', member: async () => newMemberDetails() },
] as const;

for (const form of forms) {
  test(`${form.name} with the auth service unreachable: a message, the values kept, then it works`, async ({ page }) => {
    const member = await form.member();
    await page.goto(form.path);
    await email(page).fill(member.email);
    await password(page).fill(member.password);
    const attempts = await cutAuthService(page);

    await page.getByRole('button', { name: form.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(UNREACHABLE);
    expect(attempts(), 'the form really tried the service').toBeGreaterThan(0);
    await expect(email(page)).toHaveValue(member.email);
    await expect(password(page)).toHaveValue(member.password);
    await expect(page.getByRole('button', { name: form.submit })).toBeEnabled();
    await expect(page).toHaveURL(new RegExp(`${form.path}$`));

    await page.unroute(AUTH_SERVICE);
    await page.getByRole('button', { name: form.submit }).click();
    await expect(page).toHaveURL(/\/browse$/);
  });
}
