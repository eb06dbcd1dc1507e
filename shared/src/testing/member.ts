import type { AuthState } from '@netnet/shared';

let count = 0;

/** A member id no other test uses (records in the store are per member, so tests never share a list). */
export const newMemberId = (): string => `test-member-${++count}`;

/** The auth state of a signed-in member. */
export const signedIn = (uid: string = newMemberId()): AuthState => ({
  status: 'authenticated',
  member: { uid, email: `${uid}@example.com` },
});

export const anonymous: AuthState = { status: 'anonymous' };
