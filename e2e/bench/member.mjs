// A member for the members' pages: an account in the Auth emulator (its REST API, as
// e2e/support/members.ts does) and a signed-in browser state to start each cold run from. The
// emulator keeps no accounts over a restart of the site, so each site start needs its own member.
import { randomUUID } from 'node:crypto';
import { site, SITE } from './site.mjs';

const EMULATOR = site.runtimeConfig(site.readSite()).authEmulatorUrl;

export async function createMember() {
  const member = { email: `bench-${randomUUID().slice(0, 8)}@example.com`, password: 'correct-horse-42' };
  const response = await fetch(`${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-netnet-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...member, returnSecureToken: true }),
  });
  if (!response.ok) throw new Error(`Could not create a member in the Auth emulator: ${await response.text()}`);
  const { localId } = await response.json();
  return { ...member, uid: localId };
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

export const MEMBER_COOKIE = 'netnet-member';

/**
 * Cookies, localStorage and IndexedDB of a signed-in member, for browser.newContext({ storageState }),
 * and whether the shell set the member hint cookie itself on sign-in. The shell's server renders
 * members' pages only for a request with that cookie; without it the runs would measure the
 * visitor's page, so it is added when the shell did not set it (the report says so).
 */
export async function memberState(browser, member) {
  const context = await browser.newContext();
  try {
    await signIn(await context.newPage(), member);
    const hinted = (await context.cookies(SITE)).some((cookie) => cookie.name === MEMBER_COOKIE && cookie.value !== '');
    if (!hinted) await context.addCookies([{ name: MEMBER_COOKIE, value: member.uid, url: SITE, sameSite: 'Lax' }]);
    return { storageState: await context.storageState({ indexedDB: true }), hintSetByShell: hinted };
  } finally {
    await context.close();
  }
}

/** The Cookie header a browser with this state sends to the site. */
export function cookieHeader(storageState) {
  const { hostname } = new URL(SITE);
  return storageState.cookies
    .filter((cookie) => cookie.domain.replace(/^\./, '') === hostname)
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ');
}
