import { test as base, expect } from './test';
import { createMember, signIn, type TestMember } from './members';
import { siteUrl } from './site';

// A member signed in once per worker, its browser storage (Firebase keeps the session in
// IndexedDB) copied into every test's fresh context: each test opens a members' page directly
// instead of going through the sign-in form again. Tests stay isolated: each gets its own copy.

type StorageState = Awaited<ReturnType<import('@playwright/test').BrowserContext['storageState']>>;

export const test = base.extend<{ member: TestMember }, { memberSession: { member: TestMember; state: StorageState } }>({
  memberSession: [
    async ({ browser }, use) => {
      const member = await createMember();
      const context = await browser.newContext({ baseURL: siteUrl });
      const page = await context.newPage();
      await signIn(page, member);
      await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
      const state = await context.storageState({ indexedDB: true });
      await context.close();
      await use({ member, state });
    },
    { scope: 'worker' },
  ],
  storageState: async ({ memberSession }, use) => use(memberSession.state),
  member: async ({ memberSession }, use) => use(memberSession.member),
});

/** For a describe block whose tests are about visitors. */
export const asVisitor = { storageState: { cookies: [], origins: [] } };

export { expect };
