// Run: node --import tsx --test server-kit/src/cookies.test.ts
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { cookieValue } from './cookies.ts';

it('reads one cookie of a header: the first of its name, trimmed; null when absent', () => {
  assert.equal(cookieValue('a=1; netnet-device=abc ; b=2', 'netnet-device'), 'abc');
  assert.equal(cookieValue('netnet-device=first; netnet-device=second', 'netnet-device'), 'first');
  assert.equal(cookieValue('xnetnet-device=1; netnet-device-x=2', 'netnet-device'), null);
  assert.equal(cookieValue('token=a=b=c', 'token'), 'a=b=c');
  assert.equal(cookieValue(['a=1', 'qa=t'], 'qa'), 't');
  assert.equal(cookieValue(undefined, 'a'), null);
  assert.equal(cookieValue('', 'a'), null);
});
