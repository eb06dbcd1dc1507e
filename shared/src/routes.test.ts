import { parseTitleId, routes } from './routes';

describe('routes', () => {
  it('sends movies to /title and series to /tv (DESIGN §8)', () => {
    expect(routes.title('movie', 604)).toBe('/title/604');
    expect(routes.title('tv', 1399)).toBe('/tv/1399');
  });

  it('encodes what it puts in a query', () => {
    expect(routes.login('a+b@example.com')).toBe('/login?email=a%2Bb%40example.com');
    expect(routes.search('<script>&')).toBe('/search?q=%3Cscript%3E%26');
    expect(routes.search()).toBe('/search');
  });
});

describe('parseTitleId', () => {
  it.each(['604', '1', '9999999999'])('accepts %s', (raw) => {
    expect(parseTitleId(raw)).toBe(Number(raw));
  });

  it.each([undefined, '', 'abc', '-1', '0', '1e99', '06', '12.5', ' 1', '1'.repeat(40), '<script>'])(
    'refuses %p',
    (raw) => {
      expect(parseTitleId(raw)).toBeNull();
    },
  );
});
