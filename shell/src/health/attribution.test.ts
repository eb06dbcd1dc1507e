import { attribute, releaseBase, scriptUrlsOf, type LoadedRelease } from './attribution';

const PAGE = 'https://netnet.test/browse';
const titleCanary: LoadedRelease = { remote: 'remote-title', version: '1.4.0', channel: 'canary', base: 'https://cdn.test/remote-title/1.4.0/' };
const titleStable: LoadedRelease = { remote: 'remote-title', version: '1.3.0', channel: 'stable', base: 'https://cdn.test/remote-title/1.3.0/' };
const browseDev: LoadedRelease = { remote: 'remote-browse', version: '1.0.0', channel: 'stable', base: 'http://localhost:3002/' };

it('a release’s files are those in the folder of its manifest', () => {
  expect(releaseBase('https://cdn.test/remote-title/1.4.0/mf-manifest.json', PAGE)).toBe('https://cdn.test/remote-title/1.4.0/');
  expect(releaseBase('/releases/remote-title/1.4.0/mf-manifest.json', PAGE)).toBe('https://netnet.test/releases/remote-title/1.4.0/');
  expect(releaseBase('http://localhost:3002/mf-manifest.json', PAGE)).toBe('http://localhost:3002/');
  // The page's own origin root holds the shell: no release may claim it.
  expect(releaseBase('/mf-manifest.json', PAGE)).toBeNull();
  expect(releaseBase('http://[bad', PAGE)).toBeNull();
});

it('reads the error’s file first, then its stack', () => {
  const error = new Error('boom');
  error.stack = [
    'TypeError: boom',
    '    at render (https://cdn.test/remote-title/1.4.0/823.abc123.js:1:2345)',
    '    at https://netnet.test/main.js:2:10',
    'next@https://cdn.test/remote-title/1.4.0/remoteEntry.js:3:4',
  ].join('\n');
  const event = new ErrorEvent('error', { filename: 'https://netnet.test/vendor.js', error });
  expect(scriptUrlsOf(event)).toEqual([
    'https://netnet.test/vendor.js',
    'https://cdn.test/remote-title/1.4.0/823.abc123.js:1:2345',
    'https://netnet.test/main.js:2:10',
    'https://cdn.test/remote-title/1.4.0/remoteEntry.js:3:4',
  ]);
});

it('reads a rejection’s reason, and nothing from a reason that is not an error', () => {
  const reason = new Error('rejected');
  reason.stack = 'Error: rejected\n    at load (https://cdn.test/remote-title/1.3.0/page.js:9:9)';
  expect(scriptUrlsOf(Object.assign(new Event('unhandledrejection'), { reason }))).toEqual(['https://cdn.test/remote-title/1.3.0/page.js:9:9']);
  expect(scriptUrlsOf(Object.assign(new Event('unhandledrejection'), { reason: 'https://cdn.test/remote-title/1.3.0/x.js' }))).toEqual([]);
});

it('blames the release whose folder holds the first address that belongs to one', () => {
  const releases = [titleStable, titleCanary, browseDev];
  expect(attribute(['https://netnet.test/main.js:1:1', 'https://cdn.test/remote-title/1.4.0/823.js:1:2'], releases)).toBe(titleCanary);
  expect(attribute(['https://cdn.test/remote-title/1.3.0/1.js', 'https://cdn.test/remote-title/1.4.0/2.js'], releases)).toBe(titleStable);
  expect(attribute(['http://localhost:3002/src_pages_Browse_tsx.js:4:1'], releases)).toBe(browseDev);
});

it('blames no one for errors outside every release', () => {
  const releases = [titleStable, titleCanary];
  expect(attribute(['https://netnet.test/main.js:1:1'], releases)).toBeNull();
  // Another version's folder, a lookalike host, an extension.
  expect(attribute(['https://cdn.test/remote-title/1.4.1/823.js'], releases)).toBeNull();
  expect(attribute(['https://cdn.test.evil/remote-title/1.4.0/823.js'], releases)).toBeNull();
  expect(attribute(['chrome-extension://abc/content.js'], releases)).toBeNull();
  expect(attribute([], releases)).toBeNull();
});

it('prefers the deepest folder when one release’s folder holds another’s', () => {
  const outer: LoadedRelease = { ...browseDev, base: 'https://cdn.test/' };
  expect(attribute(['https://cdn.test/remote-title/1.4.0/823.js'], [outer, titleCanary])).toBe(titleCanary);
  expect(attribute(['https://cdn.test/other.js'], [titleCanary, outer])).toBe(outer);
});
