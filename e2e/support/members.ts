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

export async function createMember(member: TestMember = newMemberDetails()): Promise<TestMember> {
  const response = await fetch(
    `${authEmulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-netnet-key`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...member, returnSecureToken: true }),
    },
  );
  if (!response.ok) throw new Error(`Could not create ${member.email}: ${await response.text()}`);
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

/** A fresh member, signed in. */
export async function signInAsNewMember(page: Page): Promise<TestMember> {
  const member = await createMember();
  await signIn(page, member);
  return member;
}
