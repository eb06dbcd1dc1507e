import { getDefaultStore } from 'jotai';
import { authAtom } from '@netnet/shared';
import { bucketIdentity, deviceId } from './identity';

const forgetDevice = () => (document.cookie = 'netnet-device=; Path=/; Max-Age=0');

beforeEach(() => {
  localStorage.clear();
  forgetDevice();
  getDefaultStore().set(authAtom, { status: 'anonymous' });
});

it('before sign-in, a random device id that this browser keeps', () => {
  const id = bucketIdentity();
  expect(id).toMatch(/\w{8,}/);
  expect(bucketIdentity()).toBe(id);
  expect(document.cookie).toContain(`netnet-device=${id}`);
});

it('keeps the id an earlier version kept in localStorage, now in the cookie the server reads', () => {
  localStorage.setItem('netnet:device-id', 'kept-before-42');
  expect(deviceId()).toBe('kept-before-42');
  expect(document.cookie).toContain('netnet-device=kept-before-42');
  expect(localStorage.getItem('netnet:device-id')).toBeNull();
});

it('different browsers get different device ids', () => {
  const first = deviceId();
  forgetDevice();
  expect(deviceId()).not.toBe(first);
});

it('once signed in, the member uid, on any device', () => {
  getDefaultStore().set(authAtom, { status: 'authenticated', member: { uid: 'uid-42', email: 'a@example.com' } });
  expect(bucketIdentity()).toBe('uid-42');
});
