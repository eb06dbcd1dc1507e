import { isMobileUserAgent, popupFeatures, ShareError, shareLink, shareMessage, SHARE_NETWORKS } from './shareLinks';

const url = 'https://netnet.example/title/604?from=share&x=a b';
const text = shareMessage('Tom & Jerry: "The Movie"');

const params = (href: string) => Object.fromEntries(new URL(href).searchParams);

it('words the message with the title and the product', () => {
  expect(shareMessage('The Matrix')).toBe('Seen "The Matrix" on Netnet yet?');
});

it('offers the five networks in order', () => {
  expect(SHARE_NETWORKS.map((n) => n.label)).toEqual(['WhatsApp', 'Telegram', 'Line', 'LinkedIn', 'Facebook']);
});

describe('WhatsApp', () => {
  it('uses the web client on a computer, with text and url joined by a space', () => {
    const { href } = shareLink('whatsapp', { url, text, mobile: false });
    expect(href.startsWith('https://web.whatsapp.com/send?')).toBe(true);
    expect(params(href)).toEqual({ text: `${text} ${url}` });
  });

  it('uses the app link on a phone', () => {
    expect(shareLink('whatsapp', { url, text, mobile: true }).href.startsWith('https://api.whatsapp.com/send?')).toBe(true);
  });
});

it.each([
  ['telegram', 'https://t.me/share/url', { url, text }],
  ['line', 'https://social-plugins.line.me/lineit/share', { url, text }],
  ['linkedin', 'https://www.linkedin.com/shareArticle', { mini: 'true', url, title: text }],
  ['facebook', 'https://www.facebook.com/sharer/sharer.php', { u: url, quote: text }],
] as const)('%s gets the url and text as parameters', (network, base, expected) => {
  const { href } = shareLink(network, { url, text, mobile: false });
  expect(href.split('?')[0]).toBe(base);
  expect(params(href)).toEqual(expected);
});

it('encodes every parameter', () => {
  for (const { id } of SHARE_NETWORKS) {
    const { href } = shareLink(id, { url, text, mobile: false });
    const search = href.slice(href.indexOf('?') + 1);
    expect(search).not.toMatch(/[ "]/);
    expect(search).toContain(encodeURIComponent(url));
    expect(search.split('&').every((pair) => pair.split('=').length === 2)).toBe(true);
  }
});

it.each([
  ['whatsapp', 550, 400],
  ['telegram', 550, 400],
  ['facebook', 550, 400],
  ['line', 500, 500],
  ['linkedin', 750, 600],
] as const)('%s opens a %ix%i popup', (network, width, height) => {
  expect(shareLink(network, { url, text, mobile: false })).toMatchObject({ width, height });
});

it('refuses to share without a url, with a readable reason', () => {
  expect(() => shareLink('facebook', { url: '', text, mobile: false })).toThrow(ShareError);
  expect(() => shareLink('line', { url: '  ', text, mobile: false })).toThrow('This title has no link to share.');
});

it('centres the popup over the window', () => {
  expect(popupFeatures({ width: 550, height: 400 }, { left: 100, top: 50, width: 1280, height: 800 })).toBe(
    'popup=yes,width=550,height=400,left=465,top=250',
  );
  expect(popupFeatures({ width: 750, height: 600 }, { left: 0, top: 0, width: 375, height: 667 })).toContain('left=0,top=34');
});

it('tells phones from computers by their user agent', () => {
  expect(isMobileUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(true);
  expect(isMobileUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/125 Mobile Safari/537.36')).toBe(true);
  expect(isMobileUserAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/125 Safari/537.36')).toBe(false);
});
