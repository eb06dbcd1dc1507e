import { etagOf, ifNoneMatchHits } from './etag';
import { raw, serve, type Running } from './test/serve';

describe('ifNoneMatchHits (weak comparison, RFC 9110 §13.1.2)', () => {
  const tag = '"abc123"';

  it.each([
    ['the same tag', '"abc123"'],
    ['the weak form of the tag', 'W/"abc123"'],
    ['the tag in a list', '"other", W/"abc123" , "third"'],
    ['a list without spaces', '"other",W/"abc123"'],
    ['*', '*'],
  ])('matches %s', (_what, header) => {
    expect(ifNoneMatchHits(header, tag)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another tag', '"abc1234"'],
    ['a prefix of the tag', '"abc"'],
    ['the tag unquoted', 'abc123'],
    ['an unterminated tag', '"abc123'],
    ['a lowercase weak prefix', 'w/"abc123"'],
  ])('does not match %s', (_what, header) => {
    expect(ifNoneMatchHits(header, tag)).toBe(false);
  });

  it('compares a weak tag of ours weakly too', () => {
    expect(ifNoneMatchHits('"v1"', 'W/"v1"')).toBe(true);
  });

  it('reads a tag holding a comma as one tag', () => {
    expect(ifNoneMatchHits('"a,b"', '"a,b"')).toBe(true);
    expect(ifNoneMatchHits('"a,b"', '"a"')).toBe(false);
  });

  it('names bytes by a strong quoted hash', () => {
    expect(etagOf(Buffer.from('hello'))).toBe('"qvTGHdzF6KLavt4PO0gs2a"');
  });
});

describe('every response honours If-None-Match the same way', () => {
  let service: Running;
  beforeAll(async () => {
    service = await serve({ size: 200 });
  });
  afterAll(() => service.close());

  it.each(['/3/movie/604', '/media/demo-clip.jpg', '/media/demo-clip.mp4'])('%s answers 304 to its tag, weak or in a list', async (path) => {
    const first = await raw(`${service.url}${path}`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    for (const header of [etag, `W/${etag}`, `"stale", ${etag}`]) {
      const again = await raw(`${service.url}${path}`, { headers: { 'If-None-Match': header } });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    expect((await raw(`${service.url}${path}`, { headers: { 'If-None-Match': '"stale"' } })).status).toBe(200);
  });
});
