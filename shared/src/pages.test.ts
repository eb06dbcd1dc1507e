import { href, pageList, PLAY_ON_ARRIVAL, redirects, remoteNames, titleHref } from './pages';

describe('href', () => {
  it('writes a page without params or query as its path', () => {
    expect(href('landing')).toBe('/');
    expect(href('myList')).toBe('/my-list');
    expect(href('comingSoon')).toBe('/coming-soon');
  });

  it('fills the params and encodes the query parameters the page declares', () => {
    expect(href('movie', { id: 604 })).toBe('/title/604');
    expect(href('movie', { id: 604, play: '1' })).toBe('/title/604?play=1');
    expect(href('login', { email: 'a+b@example.com' })).toBe('/login?email=a%2Bb%40example.com');
    expect(href('search', { q: '<script>& night shift' })).toBe('/search?q=%3Cscript%3E%26%20night%20shift');
  });

  it('leaves empty query values out', () => {
    expect(href('search', { q: '' })).toBe('/search');
    expect(href('search', { q: null })).toBe('/search');
    expect(href('search')).toBe('/search');
  });

  it('sends movies to /title and series to /tv', () => {
    expect(titleHref('movie', 604)).toBe('/title/604');
    expect(titleHref('tv', 1399)).toBe('/tv/1399');
    expect(titleHref('tv', 1399, { play: PLAY_ON_ARRIVAL.value })).toBe('/tv/1399?play=1');
  });
});

describe('the page table', () => {
  it('gives every path to exactly one page', () => {
    const paths = pageList.map((page) => page.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('gives each remote pages with distinct modules, and every remote at least one', () => {
    for (const remote of remoteNames) {
      const modules = pageList.filter((page) => page.remote === remote).map((page) => page.module);
      expect(modules.length).toBeGreaterThan(0);
      expect(new Set(modules).size).toBe(modules.length);
    }
  });

  it('opens with the landing page for visitors and /browse for members (the defaults)', () => {
    expect(pageList.find((page) => page.audience === 'visitor')?.path).toBe('/');
    expect(pageList.find((page) => page.audience === 'member')?.path).toBe('/browse');
  });

  it('redirects the old spelling of Coming soon to a page of the table', () => {
    expect(redirects['/comming-soon']).toBe('/coming-soon');
    expect(pageList.map((page) => page.path)).toContain(redirects['/comming-soon']);
  });
});
