// The API's answer to repeated wrong tokens (./authBackoff.ts).
// Run: node --import tsx --test control-plane/src/api/authBackoff.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuthBackoff } from './authBackoff.ts';

describe('createAuthBackoff', () => {
  it('answers the first 5 wrong tokens of an address at once, then each twice as late, up to 2 s', () => {
    let at = 0;
    const backoff = createAuthBackoff(undefined, () => at);
    const waits = Array.from({ length: 12 }, () => backoff.failed('203.0.113.7'));
    assert.deepEqual(waits, [0, 0, 0, 0, 0, 100, 200, 400, 800, 1600, 2000, 2000]);
    // Another address is not slowed by this one.
    assert.equal(backoff.failed('198.51.100.1'), 0);
    // A minute without a wrong token, or a valid one, and the address starts afresh.
    at += 61_000;
    assert.equal(backoff.failed('203.0.113.7'), 0);
    for (let i = 0; i < 10; i += 1) backoff.failed('203.0.113.7');
    backoff.succeeded('203.0.113.7');
    assert.equal(backoff.failed('203.0.113.7'), 0);
  });
});
