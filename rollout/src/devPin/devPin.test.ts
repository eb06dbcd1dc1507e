// Which dev servers may be pinned: the one rule the shell's server and the shell both apply
// (docs/releases.md, "Develop against the real site").
import { loopbackOrigin, parseDevPin } from './index.ts';
import { isLoopbackOrigin } from './origin.ts';

const accepted: Array<[string, string]> = [
  ['http://localhost:3003', 'http://localhost:3003'],
  ['http://localhost:3003/', 'http://localhost:3003'],
  ['http://127.0.0.1:5173', 'http://127.0.0.1:5173'],
  // No IPv6 address in a CSP: pinned as localhost.
  ['http://[::1]:3003', 'http://localhost:3003'],
];
const refused = [
  'http://example.com:3003',
  'https://localhost:3003',
  'http://localhost',
  'http://localhost:80',
  'http://localhost:0',
  'http://localhost.example.com:3003',
  'http://127.0.0.2:3003',
  'http://0x7f000001:3003',
  'http://2130706433:3003',
  'http://LOCALHOST:3003',
  'http://user@localhost:3003',
  'http://localhost:3003/remote',
  'http://localhost:3003?x=1',
  'http://localhost:3003#x',
  'http://[::ffff:127.0.0.1]:3003',
  'http://10.0.0.5:3003',
  'javascript:alert(1)',
  'file:///etc/passwd',
  '//localhost:3003',
  'localhost:3003',
  '',
];

it.each(accepted)('accepts %s as %s, an origin a map may name', (value, origin) => {
  expect(loopbackOrigin(value)).toEqual({ origin });
  expect(isLoopbackOrigin(origin)).toBe(true);
});

it.each(refused)('refuses %j with the reason', (value) => {
  const result = loopbackOrigin(value);
  expect(result).toHaveProperty('error');
  expect('error' in result && result.error).toMatch(/only a dev server on this machine can be pinned: http:\/\/localhost:<port>, http:\/\/127\.0\.0\.1:<port> or http:\/\/\[::1\]:<port>/);
});

it('takes no other origin from a map than one loopbackOrigin gives', () => {
  for (const origin of ['http://[::1]:3003', 'http://localhost:3003/', 'https://localhost:3003', 'http://localhost.evil:3003', 'http://localhost:3003 ']) {
    expect(isLoopbackOrigin(origin)).toBe(false);
  }
});

it('reads a dev pin only from a value that starts with dev:', () => {
  expect(parseDevPin('1.4.0')).toBeNull();
  expect(parseDevPin('clear')).toBeNull();
  expect(parseDevPin('dev:http://localhost:3003')).toEqual({ origin: 'http://localhost:3003' });
  expect(parseDevPin('dev:http://evil.example:3003')).toHaveProperty('error');
});
