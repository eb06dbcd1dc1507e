/**
 * @jest-environment node
 */
import { chooseEncoding } from './encoding';

// Accept-Encoding as RFC 9110 reads it: q=0 refuses a coding, `*` covers the ones not named, the
// heaviest acceptable coding wins (brotli on a tie), and nothing acceptable means identity.

describe('chooseEncoding', () => {
  it.each([
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
  ])('%j → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });

  it('offers only what the server has', () => {
    expect(chooseEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(chooseEncoding('br', ['gzip'])).toBeNull();
  });
});
