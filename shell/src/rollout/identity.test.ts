import { getDefaultStore } from 'jotai';
import { authAtom } from '@netnet/shared';
import { bucketIdentity, deviceId } from './identity';

beforeEach(() => {
  localStorage.clear();
  getDefaultStore().set(authAtom, { status: 'anonymous' });
});

it('before sign-in, a random device id that this browser keeps', () => {
  const id = bucketIdentity();
  expect(id).toMatch(/\w{8,}/);
  expect(bucketIdentity()).toBe(id);
  expect(localStorage.getItem('netnet:device-id')).toBe(id);
});

it('different browsers get different device ids', () => {
  const first = deviceId();
  localStorage.clear();
  expect(deviceId()).not.toBe(first);
});

it('once signed in, the member uid, on any device', () => {
  getDefaultStore().set(authAtom, { status: 'authenticated', member: { uid: 'uid-42', email: 'a@example.com' } });
  expect(bucketIdentity()).toBe('uid-42');
});
