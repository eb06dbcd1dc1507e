import { fakeResponse } from '@netnet/shared/testing';
import { areaFiles, areaLinks, hintOf, parseTemplate, type AreaFiles } from './document';

// The shell's index.html as webpack builds it (minified: attribute quotes dropped where HTML
// allows), and the same page as written by hand, with quotes.
const BUILT =
  '<!doctype html><html lang=en><head><meta charset=utf-8><meta name=theme-color content=#141414><title>Netnet</title>' +
  '<link rel=stylesheet href=/481.b67632c23f.css><link rel=preload as=script href=/481.6493909a59.js>' +
  '<link rel=icon href=/favicon.svg><script defer src=/main.1a49006864.js></script></head>' +
  '<body><div id=root></div><noscript>Netnet needs JavaScript to run.</noscript></body></html>';
const QUOTED =
  '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Netnet</title>\n' +
  '<link rel="stylesheet" href="/main.css">\n<script defer src="/main.js"></script>\n</head>\n' +
  '<body>\n<div id="root"></div>\n<noscript>Netnet needs JavaScript to run.</noscript>\n</body>\n</html>\n';

const RENDER = '<header>Netnet</header><main><h1>Unlimited movies</h1></main>';

describe('parseTemplate', () => {
  it.each([
    ['the minified build', BUILT, '<div id=root>'],
    ['a quoted page', QUOTED, '<div id="root">'],
  ])('cuts %s around #root, so a render goes inside it and nothing else moves', (_name, html, open) => {
    const page = parseTemplate(html);
    expect(page.head + page.bodyStart + page.bodyEnd).toBe(html);
    expect(page.head).not.toContain('</head>');
    expect(page.bodyStart.startsWith('</head>')).toBe(true);
    expect(page.bodyStart.endsWith(open)).toBe(true);
    expect(page.bodyEnd.startsWith('</div><noscript>') || page.bodyEnd.startsWith('</div>\n<noscript>')).toBe(true);

    const served = `${page.head}<link rel="stylesheet" href="/area.css">${page.bodyStart}${RENDER}${page.bodyEnd}`;
    const doc = new DOMParser().parseFromString(served, 'text/html');
    expect(doc.getElementById('root')?.innerHTML).toBe(RENDER);
    expect(doc.head.querySelector('link[href="/area.css"]')).not.toBeNull();
    expect(doc.querySelector('noscript')?.parentElement).toBe(doc.body);
  });

  it('finds the shell’s own scripts and style sheets for Early Hints, not its icon', () => {
    expect(parseTemplate(BUILT).shellFiles).toEqual(['/481.b67632c23f.css', '/481.6493909a59.js', '/main.1a49006864.js']);
    expect(parseTemplate(QUOTED).shellFiles).toEqual(['/main.css', '/main.js']);
    expect(parseTemplate(BUILT).shellFiles.map(hintOf)).toEqual([
      '</481.b67632c23f.css>; rel=preload; as=style',
      '</481.6493909a59.js>; rel=preload; as=script',
      '</main.1a49006864.js>; rel=preload; as=script',
    ]);
  });

  it('refuses a page it cannot place a render in', () => {
    expect(() => parseTemplate('<html><head></head><body><div id="app"></div></body></html>')).toThrow('#root');
    expect(() => parseTemplate('<html><head></head><body><div id=root>Loading…</div></body></html>')).toThrow('#root');
    expect(() => parseTemplate('<div id=root></div>')).toThrow('</head>');
    expect(() => parseTemplate('<html><head></head><body><div id="root></div></body></html>')).toThrow('#root');
  });
});

describe('areaLinks', () => {
  const files = (overrides: Partial<AreaFiles> = {}): AreaFiles => ({
    css: ['https://cdn.test/remote-title/1.0.0/expose.css'],
    scripts: ['https://cdn.test/remote-title/1.0.0/remoteEntry.js', 'https://cdn.test/remote-title/1.0.0/page.js'],
    manifest: 'https://cdn.test/remote-title/1.0.0/mf-manifest.json',
    crossOrigin: false,
    ...overrides,
  });
  const head = (links: string) => new DOMParser().parseFromString(`<head>${links}</head>`, 'text/html').head;

  it('links the style sheets, and preloads the manifest (as the runtime fetches it) and the scripts', () => {
    const links = [...head(areaLinks(files())).querySelectorAll('link')].map((link) => ({
      rel: link.getAttribute('rel'),
      as: link.getAttribute('as'),
      href: link.getAttribute('href'),
      crossorigin: link.getAttribute('crossorigin'),
    }));
    expect(links).toEqual([
      { rel: 'stylesheet', as: null, href: 'https://cdn.test/remote-title/1.0.0/expose.css', crossorigin: null },
      { rel: 'preload', as: 'fetch', href: 'https://cdn.test/remote-title/1.0.0/mf-manifest.json', crossorigin: 'anonymous' },
      { rel: 'preload', as: 'script', href: 'https://cdn.test/remote-title/1.0.0/remoteEntry.js', crossorigin: null },
      { rel: 'preload', as: 'script', href: 'https://cdn.test/remote-title/1.0.0/page.js', crossorigin: null },
    ]);
  });

  it('preloads scripts in anonymous CORS mode only when the release’s hashes are checked', () => {
    const scripts = (crossOrigin: boolean) =>
      [...head(areaLinks(files({ crossOrigin }))).querySelectorAll('link[as="script"]')].map((link) => link.getAttribute('crossorigin'));
    expect(scripts(true)).toEqual(['anonymous', 'anonymous']);
    expect(scripts(false)).toEqual([null, null]);
    // The style sheets keep their mode either way.
    expect(head(areaLinks(files({ crossOrigin: true }))).querySelector('link[rel="stylesheet"]')?.hasAttribute('crossorigin')).toBe(false);
  });

  it('escapes the URLs: a quote or a tag in one stays inside its attribute', () => {
    const hostile = 'https://cdn.test/x"><script>alert(1)</script><a href="&amp;.js';
    const html = areaLinks(files({ css: [`${hostile}.css`], scripts: [hostile], manifest: `${hostile}.json` }));
    expect(html).not.toContain('<script');
    const parsed = head(html);
    expect(parsed.querySelectorAll('script')).toHaveLength(0);
    expect([...parsed.children].map((element) => element.tagName)).toEqual(['LINK', 'LINK', 'LINK']);
    expect([...parsed.querySelectorAll('link')].map((link) => link.getAttribute('href'))).toEqual([
      `${hostile}.css`,
      `${hostile}.json`,
      hostile,
    ]);
  });
});

describe('areaFiles', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  const manifest = {
    metaData: { remoteEntry: { name: 'remoteEntry.js', path: '' } },
    exposes: [
      {
        name: 'MovieDetail',
        assets: {
          js: { sync: ['416.js', '__federation_expose_MovieDetail.js'], async: ['127.js'] },
          css: { sync: ['__federation_expose_MovieDetail.css'], async: ['354.css'] },
        },
      },
      { name: 'SeriesDetail', assets: { js: { sync: ['__federation_expose_SeriesDetail.js'] }, css: { sync: [] } } },
    ],
  };

  it('reads a page’s files from its release’s manifest, as absolute URLs', async () => {
    const fetchMock = jest.fn(async () => fakeResponse(200, manifest));
    global.fetch = fetchMock as unknown as typeof fetch;
    const base = 'https://cdn.test/remote-title/1.2.0/';
    const release = { version: '1.2.0', entry: `${base}mf-manifest.json`, integrity: { 'remoteEntry.js': 'sha384-x' } };

    await expect(areaFiles(release, 'MovieDetail')).resolves.toEqual({
      css: [`${base}__federation_expose_MovieDetail.css`, `${base}354.css`],
      scripts: [`${base}remoteEntry.js`, `${base}416.js`, `${base}__federation_expose_MovieDetail.js`],
      manifest: `${base}mf-manifest.json`,
      crossOrigin: true,
    });
    // The manifest is fetched once per release.
    await expect(areaFiles(release, 'SeriesDetail')).resolves.toMatchObject({
      css: [],
      scripts: [`${base}remoteEntry.js`, `${base}__federation_expose_SeriesDetail.js`],
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a release without recorded hashes preloads without CORS, and a failed manifest is asked again next time', async () => {
    const base = 'https://cdn.test/remote-title/1.3.0/';
    const release = { version: '1.3.0', entry: `${base}mf-manifest.json` };
    global.fetch = jest.fn(async () => fakeResponse(503, 'unavailable')) as unknown as typeof fetch;
    await expect(areaFiles(release, 'MovieDetail')).rejects.toThrow('503');
    global.fetch = jest.fn(async () => fakeResponse(200, manifest)) as unknown as typeof fetch;
    await expect(areaFiles(release, 'MovieDetail')).resolves.toMatchObject({ crossOrigin: false });
  });
});
