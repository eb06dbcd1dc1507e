// Which dev servers may be pinned: the one rule the shell's server and the shell both apply
// (docs/releases.md, "Develop against the real site").
import { loopbackOrigin, parseDevPin } from '.';
import { isLoopbackOrigin } from './origin';

const values = [
  'http://localhost:3003',
  'http://localhost:3003/',
  'http://127.0.0.1:5173',
  'http://[::1]:3003',
  'http://example.com:3003',
  'https://localhost:3003',
  'http://localhost',
  'http://localhost:80',
  'http://localhost.example.com:3003',
  'http://127.0.0.2:3003',
  'http://0x7f000001:3003',
  'http://LOCALHOST:3003',
  'http://user@localhost:3003',
  'http://localhost:3003/remote',
  'http://localhost:3003?x=1',
  'http://[::ffff:127.0.0.1]:3003',
  'javascript:alert(1)',
  'localhost:3003',
  '',
];
const accepted = new Set(['http://localhost:3003', 'http://localhost:3003/', 'http://127.0.0.1:5173', 'http://[::1]:3003']);


it.each(values)('%s: accepted only when it is a loopback origin with a port, written as one', (value) => {
  expect('origin' in loopbackOrigin(value)).toBe(accepted.has(value));
});

it('gives only origins a map may name, and the shell takes no other from a map', () => {
  for (const value of values) {
    const answer = loopbackOrigin(value);
    if ('origin' in answer) expect(isLoopbackOrigin(answer.origin)).toBe(true);
  }
  expect(loopbackOrigin('http://localhost:0')).toHaveProperty('error');
  for (const origin of ['http://[::1]:3003', 'http://localhost:3003/', 'https://localhost:3003', 'http://localhost.evil:3003', 'http://localhost:3003 ']) {
    expect(isLoopbackOrigin(origin)).toBe(false);
  }
});

it('pins [::1] as localhost, which a content policy can name', () => {
  expect(loopbackOrigin('http://[::1]:3003')).toEqual({ origin: 'http://localhost:3003' });
});

it('reads a dev pin only from a value that starts with dev:', () => {
  expect(parseDevPin('dev:http://127.0.0.1:5173')).toEqual({ origin: 'http://127.0.0.1:5173' });
  expect(parseDevPin('1.4.0')).toBeNull();
  expect(parseDevPin('dev:http://example.com:3003')).toHaveProperty('error');
});
