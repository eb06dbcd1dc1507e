import { clearedCookie, DEVICE_COOKIE, idCookie, isId, MEMBER_COOKIE, readIdCookie } from './cookies';

describe('readIdCookie', () => {
  it('picks the named cookie among several, wherever it stands in the header', () => {
    const header = 'theme=dark; netnet-device=dev-123; netnet-member=uid_42; other=x';
    expect(readIdCookie(header, DEVICE_COOKIE)).toBe('dev-123');
    expect(readIdCookie(header, MEMBER_COOKIE)).toBe('uid_42');
    expect(readIdCookie('netnet-member=first;netnet-device=second', DEVICE_COOKIE)).toBe('second');
  });

  it('matches the whole name, not a cookie whose name merely contains it', () => {
    expect(readIdCookie('x-netnet-device=wrong; netnet-devices=wrong2', DEVICE_COOKIE)).toBeNull();
    expect(readIdCookie('x-netnet-device=wrong; netnet-device=right', DEVICE_COOKIE)).toBe('right');
  });

  it('is null when the cookie is absent, or there are no cookies at all', () => {
    expect(readIdCookie('theme=dark', DEVICE_COOKIE)).toBeNull();
    expect(readIdCookie('', DEVICE_COOKIE)).toBeNull();
    expect(readIdCookie(undefined, DEVICE_COOKIE)).toBeNull();
    expect(readIdCookie('netnet-device', DEVICE_COOKIE)).toBeNull();
  });

  it('takes a UUID and a Firebase uid', () => {
    expect(readIdCookie('netnet-device=1b4e28ba-2fa1-11d2-883f-0016d3cca427', DEVICE_COOKIE)).toBe('1b4e28ba-2fa1-11d2-883f-0016d3cca427');
    expect(readIdCookie('netnet-member=Xy9zAbC1dEfG2hIj3KlMnOpQr4S2', MEMBER_COOKIE)).toBe('Xy9zAbC1dEfG2hIj3KlMnOpQr4S2');
  });

  it('ignores a value that is not an id: spaces, quotes, separators, markup, empty, too long', () => {
    for (const value of ['a b', '"abc"', "'abc'", 'a,b', 'a=b', '<script>', 'a%3Bb', '', 'x'.repeat(129)]) {
      expect(readIdCookie(`netnet-device=${value}; other=1`, DEVICE_COOKIE)).toBeNull();
    }
    // A ';' ends the value: what is left is not the whole id, and the rest is not taken either.
    expect(readIdCookie('netnet-device="a;b"', DEVICE_COOKIE)).toBeNull();
    expect(readIdCookie(`netnet-device=${'x'.repeat(128)}`, DEVICE_COOKIE)).toBe('x'.repeat(128));
  });
});

describe('isId', () => {
  it('accepts letters, digits, - and _ only, 1 to 128 of them', () => {
    expect(isId('abc-DEF_123')).toBe(true);
    expect(isId('x'.repeat(128))).toBe(true);
    expect(isId('x'.repeat(129))).toBe(false);
    expect(isId('')).toBe(false);
    expect(isId('a;b')).toBe(false);
    expect(isId('é')).toBe(false);
  });
});

describe('idCookie', () => {
  const attributes = (cookie: string) => cookie.split('; ').slice(1);

  it('is sent to the whole site for a year, on same-site requests and top-level visits', () => {
    const cookie = idCookie(DEVICE_COOKIE, 'dev-123');
    expect(cookie.split('; ')[0]).toBe('netnet-device=dev-123');
    expect(attributes(cookie)).toEqual(expect.arrayContaining(['Path=/', 'SameSite=Lax', `Max-Age=${365 * 24 * 60 * 60}`]));
  });

  it('is Secure only when asked (a page served over https)', () => {
    expect(attributes(idCookie(MEMBER_COOKIE, 'uid-1'))).not.toContain('Secure');
    expect(attributes(idCookie(MEMBER_COOKIE, 'uid-1', { secure: false }))).not.toContain('Secure');
    expect(attributes(idCookie(MEMBER_COOKIE, 'uid-1', { secure: true }))).toContain('Secure');
  });

  it('reads back as the same id once the browser keeps it', () => {
    document.cookie = idCookie(MEMBER_COOKIE, 'uid-1');
    expect(readIdCookie(document.cookie, MEMBER_COOKIE)).toBe('uid-1');
    document.cookie = clearedCookie(MEMBER_COOKIE);
    expect(readIdCookie(document.cookie, MEMBER_COOKIE)).toBeNull();
  });
});
