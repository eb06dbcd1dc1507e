// A member for the members' pages: an account in the Auth emulator (its REST API, as
// e2e/support/members.ts does) and a signed-in browser state to start each cold run from.
import { randomUUID } from 'node:crypto';
import { site, SITE } from './site.mjs';

const EMULATOR = site.runtimeConfig().authEmulatorUrl;

export async function createMember() {
  const member = { email: `bench-${randomUUID().slice(0, 8)}@example.com`, password: 'correct-horse-42' };
  const response = await fetch(`${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-netnet-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...member, returnSecureToken: true }),
  });
  if (!response.ok) throw new Error(`Could not create a member in the Auth emulator: ${await response.text()}`);
  return member;
}

/** Through the real form, as a member would; the session ends up in IndexedDB of the shell's origin. */
export async function signIn(page, member) {
  await page.goto(`${SITE}/login`);
  await page.getByLabel('Email address', { exact: true }).fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(/\/browse$/, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Profile menu' }).waitFor({ timeout: 30_000 });
}

/** Cookies, localStorage and IndexedDB of a signed-in member, for browser.newContext({ storageState }). */
export async function memberState(browser, member) {
  const context = await browser.newContext();
  try {
    await signIn(await context.newPage(), member);
    return await context.storageState({ indexedDB: true });
  } finally {
    await context.close();
  }
}
