import { act } from '@testing-library/react';
import { getDefaultStore } from 'jotai';
import { authAtom } from '@netnet/shared';

let count = 0;

/** Signs a fresh member in for a test (records in the store are per member, so tests never share a list). */
export function signInTestMember(): string {
  const uid = `test-member-${++count}-${Date.now()}`;
  act(() => getDefaultStore().set(authAtom, { status: 'authenticated', member: { uid, email: `${uid}@example.com` } }));
  return uid;
}

export function signOutTestMember(): void {
  act(() => getDefaultStore().set(authAtom, { status: 'anonymous' }));
}
