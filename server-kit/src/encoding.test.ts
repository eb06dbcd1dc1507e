// Accept-Encoding as RFC 9110 reads it: q=0 refuses a coding, `*` covers the ones not named, the
// heaviest acceptable coding wins (brotli on a tie), and nothing acceptable means identity.
// Run: node --import tsx --test server-kit/src/encoding.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptableEncodings, chooseEncoding } from './encoding.ts';

describe('chooseEncoding', () => {
  const cases: [string | undefined, string | null][] = [
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP;Q=1', 'gzip'],
    ['br;q=0, gzip;q=0, identity', null],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.4, gzip;q=0.5', 'gzip'],
    ['br;q=0.5, gzip;q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0.2, br;q=0', 'gzip'],
    ['*;q=0', null],
    ['identity', null],
    ['', null],
    [undefined, null],
    ['br;q=2, gzip', 'gzip'],
    ['br;q=abc', null],
    ['brotli', null],
    ['gzip ; q=0.001', 'gzip'],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)} → ${expected}`, () => assert.equal(chooseEncoding(header), expected));
  }

  it('offers only what the server has', () => {
    assert.equal(chooseEncoding('br, gzip', ['gzip']), 'gzip');
    assert.equal(chooseEncoding('br', ['gzip']), null);
  });

  it('lists every acceptable coding, the heaviest first, for a file with both siblings', () => {
    assert.deepEqual(acceptableEncodings('gzip, deflate, br'), ['br', 'gzip']);
    assert.deepEqual(acceptableEncodings('br;q=0.4, gzip;q=0.5'), ['gzip', 'br']);
    assert.deepEqual(acceptableEncodings('*;q=0.1, br;q=0'), ['gzip']);
  });
});
