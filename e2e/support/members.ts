import { randomUUID } from 'node:crypto';
import { expect, type Page } from '@playwright/test';
import { authEmulatorUrl } from './site';

// Members are real accounts in the Firebase Auth emulator, created through its REST API
// (the same one the SDK calls) so each test starts from a known member.
const PROJECT = 'demo-netnet';

export interface TestMember {
  email: string;
  password: string;
}

export const newMemberDetails = (): TestMember => ({
  email: `member-${randomUUID().slice(0, 8)}@example.com`,
  password: 'correct-horse-42',
});

/** What the emulator answers a sign-up with: the account's uid and its first tokens. */
interface SignUpAnswer {
  localId: string;
  idToken: string;
  refreshToken: string;
  expiresIn: string;
}

async function signUp(member: TestMember): Promise<SignUpAnswer> {
  const response = await fetch(
    `${authEmulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-netnet-key`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...member, returnSecureToken: true }),
    },
  );
  if (!response.ok) throw new Error(`Could not create ${member.email}: ${await response.text()}`);
  return (await response.json()) as SignUpAnswer;
}

export async function createMember(member: TestMember = newMemberDetails()): Promise<TestMember> {
  await signUp(member);
  return member;
}

/** Email-enumeration protection: on, sign-in errors become auth/invalid-credential (docs/architecture.md#auth). */
export async function setEnumerationProtection(enabled: boolean): Promise<void> {
  const response = await fetch(`${authEmulatorUrl}/emulator/v1/projects/${PROJECT}/config`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ emailPrivacyConfig: { enableImprovedEmailPrivacy: enabled } }),
  });
  if (!response.ok) throw new Error(`Could not switch enumeration protection: ${await response.text()}`);
}

/** Signs in through the real form, as a member would. */
export async function signIn(page: Page, member: TestMember): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email address', { exact: true }).fill(member.email);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/browse$/);
}

/**
 * A fresh member, signed in as a returning member's browser is: the account made over the
 * emulator's REST API, the session Firebase keeps (its user record in IndexedDB, under the site's
 * API key) written at the site's origin, and the member cookie the shell sets; then the page opens
 * /browse, where the SDK checks the session with the emulator. The specs about signing in use the
 * form (signIn above).
 */
export async function signInAsNewMember(page: Page): Promise<TestMember> {
  const member = newMemberDetails();
  const account = await signUp(member);
  const config = await page.goto('/config.json');
  const { apiKey } = ((await config!.json()) as { firebase: { apiKey: string } }).firebase;
  const now = Date.now();
  // The fields Firebase's own persistence writes for an email-and-password member (User.toJSON()).
  const user = {
    uid: account.localId,
    email: member.email,
    emailVerified: false,
    isAnonymous: false,
    providerData: [{ providerId: 'password', uid: member.email, displayName: null, email: member.email, phoneNumber: null, photoURL: null }],
    stsTokenManager: { refreshToken: account.refreshToken, accessToken: account.idToken, expirationTime: now + Number(account.expiresIn) * 1000 },
    createdAt: String(now),
    lastLoginAt: String(now),
    apiKey,
    appName: '[DEFAULT]',
  };
  await page.evaluate(
    ({ key, value }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('firebaseLocalStorageDb', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('firebaseLocalStorage', { keyPath: 'fbase_key' });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const write = open.result.transaction('firebaseLocalStorage', 'readwrite');
          write.objectStore('firebaseLocalStorage').put({ fbase_key: key, value });
          write.oncomplete = () => {
            open.result.close();
            resolve();
          };
          write.onerror = () => reject(write.error);
        };
      }),
    { key: `firebase:authUser:${apiKey}:[DEFAULT]`, value: user },
  );
  await page.context().addCookies([{ name: 'netnet-member', value: account.localId, url: new URL(page.url()).origin }]);
  await page.goto('/browse');
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  return member;
}
