import { parseRemoteMap as parse, RemoteMapError } from './map.ts';

// The site's remotes as a reader knows them: a map's other names are ignored.
const parseRemoteMap = (value: unknown) => parse(value, { remotes: ['remote-auth', 'remote-browse', 'remote-title', 'remote-search'] });

const stable = (version: string, entry: string) => ({ version, entry });
// Two SHA-384 hashes as the browser's integrity attribute writes them (64 base64 characters).
const MANIFEST_HASH = 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC';
const ENTRY_HASH = 'sha384-H8BRh8j48O9oYatfu5AZzq6A9RINhZO5H16dQZngK7T62em8MUt1FLm52t+eX6xO';
const integrity = { 'mf-manifest.json': MANIFEST_HASH, 'remoteEntry.js': ENTRY_HASH };

beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}));

describe('parseRemoteMap', () => {
  it('keeps the known remotes with their stable release, canary, hashes and pinnable releases', () => {
    const map = parseRemoteMap({
      remotes: {
        'remote-title': {
          stable: { ...stable('1.3.0', 'https://cdn.example.com/remote-title/1.3.0/mf-manifest.json'), integrity },
          canary: { ...stable('1.4.0', 'https://cdn.example.com/remote-title/1.4.0/mf-manifest.json'), percent: 10 },
          pinnable: [{ ...stable('1.2.0', 'https://cdn.example.com/remote-title/1.2.0/mf-manifest.json'), integrity }],
        },
        'remote-search': { stable: stable('1.0.0', 'http://localhost:3004/mf-manifest.json') },
        'remote-unknown': { stable: stable('1.0.0', 'http://elsewhere/mf-manifest.json') },
      },
    });
    expect(map.remotes).toEqual({
      'remote-title': {
        stable: {
          version: '1.3.0',
          entry: 'https://cdn.example.com/remote-title/1.3.0/mf-manifest.json',
          integrity: {
            'mf-manifest.json': 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC',
            'remoteEntry.js': 'sha384-H8BRh8j48O9oYatfu5AZzq6A9RINhZO5H16dQZngK7T62em8MUt1FLm52t+eX6xO',
          },
        },
        canary: { version: '1.4.0', entry: 'https://cdn.example.com/remote-title/1.4.0/mf-manifest.json', percent: 10 },
        pinnable: [{ version: '1.2.0', entry: 'https://cdn.example.com/remote-title/1.2.0/mf-manifest.json', integrity }],
      },
      'remote-search': { stable: stable('1.0.0', 'http://localhost:3004/mf-manifest.json'), pinnable: [] },
    });
  });

  it('still reads the first map shape, where a remote had only an entry', () => {
    const map = parseRemoteMap({ remotes: { 'remote-auth': { entry: 'http://localhost:3001/mf-manifest.json' } } });
    expect(map.remotes['remote-auth']).toEqual({ stable: stable('unversioned', 'http://localhost:3001/mf-manifest.json'), pinnable: [] });
  });

  it.each([null, 'text', 42, {}, { remotes: null }, { remotes: 'x' }, { remotes: [1] }])(
    'refuses a malformed map (%p)',
    (value) => {
      expect(() => parseRemoteMap(value)).toThrow(RemoteMapError);
    },
  );

  it.each(['javascript:alert(1)', 42, ''])('refuses an entry that is not an http address (%p)', (entry) => {
    expect(() => parseRemoteMap({ remotes: { 'remote-auth': { entry } } })).toThrow(/remote-auth/);
    expect(() => parseRemoteMap({ remotes: { 'remote-auth': { stable: { version: '1.0.0', entry } } } })).toThrow(
      /remote-auth/,
    );
  });

  it.each([undefined, '', '../1.0.0', 'a b'])('refuses a stable release without a usable version (%p)', (version) => {
    expect(() =>
      parseRemoteMap({ remotes: { 'remote-title': { stable: { version, entry: 'http://cdn/x/mf-manifest.json' } } } }),
    ).toThrow(/remote-title/);
  });

  it.each([
    { version: '1.4.0', entry: 'http://cdn/1.4.0/mf-manifest.json', percent: 101 },
    { version: '1.4.0', entry: 'http://cdn/1.4.0/mf-manifest.json', percent: -1 },
    { version: '1.4.0', entry: 'http://cdn/1.4.0/mf-manifest.json', percent: '10' },
    { version: '1.4.0', entry: 'ftp://cdn/1.4.0/mf-manifest.json', percent: 10 },
    { entry: 'http://cdn/1.4.0/mf-manifest.json', percent: 10 },
    'half',
  ])('drops a malformed canary and keeps stable, with a warning (%p)', (canary) => {
    const map = parseRemoteMap({
      remotes: { 'remote-title': { stable: stable('1.3.0', 'http://cdn/1.3.0/mf-manifest.json'), canary } },
    });
    expect(map.remotes['remote-title']).toEqual({ stable: stable('1.3.0', 'http://cdn/1.3.0/mf-manifest.json'), pinnable: [] });
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('canary for remote-title is malformed'));
  });

  it.each([
    ['not sha384', { 'mf-manifest.json': 'sha256-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQ=' }],
    ['a truncated hash', { 'mf-manifest.json': 'sha384-oqVuAfXRKap7fdgcCY5uykM6' }],
    ['a path outside the release', { '../other/remoteEntry.js': ENTRY_HASH }],
    ['no files', {}],
    ['a list', [MANIFEST_HASH]],
  ])('refuses a stable release whose hashes are malformed (%s): it cannot be checked, so it is not used', (_what, hashes) => {
    expect(() =>
      parseRemoteMap({ remotes: { 'remote-title': { stable: { ...stable('1.3.0', 'http://cdn/1.3.0/mf-manifest.json'), integrity: hashes } } } }),
    ).toThrow(/remote-title/);
  });

  it('drops a canary whose hashes are malformed, keeping stable', () => {
    const map = parseRemoteMap({
      remotes: {
        'remote-title': {
          stable: stable('1.3.0', 'http://cdn/1.3.0/mf-manifest.json'),
          canary: { ...stable('1.4.0', 'http://cdn/1.4.0/mf-manifest.json'), percent: 10, integrity: { 'remoteEntry.js': 'md5-x' } },
        },
      },
    });
    expect(map.remotes['remote-title']?.canary).toBeUndefined();
  });

  it.each([
    ['an entry template (the earlier maps)', { entryTemplate: 'http://cdn/remote-title/{version}/mf-manifest.json' }],
    ['a list with a malformed release', { pinnable: [{ version: '1.2.0', entry: 'javascript:alert(1)' }] }],
    ['not a list', { pinnable: '1.2.0' }],
  ])('lets nothing be pinned from %s', (_what, extra) => {
    const map = parseRemoteMap({ remotes: { 'remote-title': { stable: stable('1.3.0', 'http://cdn/1.3.0/mf-manifest.json'), ...extra } } });
    expect(map.remotes['remote-title']?.pinnable).toEqual([]);
  });
});
