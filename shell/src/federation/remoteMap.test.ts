import { parseRemoteMap, RemoteMapError } from './remoteMap';

const stable = (version: string, entry: string) => ({ version, entry });

beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}));

describe('parseRemoteMap', () => {
  it('keeps the known remotes with their stable release, canary and entry template', () => {
    const map = parseRemoteMap({
      remotes: {
        'remote-title': {
          stable: stable('1.3.0', 'https://cdn.example.com/remote-title/1.3.0/mf-manifest.json'),
          canary: { ...stable('1.4.0', 'https://cdn.example.com/remote-title/1.4.0/mf-manifest.json'), percent: 10 },
          entryTemplate: 'https://cdn.example.com/remote-title/{version}/mf-manifest.json',
        },
        'remote-search': { stable: stable('1.0.0', 'http://localhost:3004/mf-manifest.json') },
        'remote-unknown': { stable: stable('1.0.0', 'http://elsewhere/mf-manifest.json') },
      },
    });
    expect(map.remotes).toEqual({
      'remote-title': {
        stable: stable('1.3.0', 'https://cdn.example.com/remote-title/1.3.0/mf-manifest.json'),
        canary: { ...stable('1.4.0', 'https://cdn.example.com/remote-title/1.4.0/mf-manifest.json'), percent: 10 },
        entryTemplate: 'https://cdn.example.com/remote-title/{version}/mf-manifest.json',
      },
      'remote-search': { stable: stable('1.0.0', 'http://localhost:3004/mf-manifest.json') },
    });
  });

  it('still reads the first map shape, where a remote had only an entry', () => {
    const map = parseRemoteMap({ remotes: { 'remote-auth': { entry: 'http://localhost:3001/mf-manifest.json' } } });
    expect(map.remotes['remote-auth']).toEqual({ stable: stable('unversioned', 'http://localhost:3001/mf-manifest.json') });
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
    expect(map.remotes['remote-title']).toEqual({ stable: stable('1.3.0', 'http://cdn/1.3.0/mf-manifest.json') });
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('canary for remote-title is malformed'));
  });

  it.each(['http://cdn/remote-title/mf-manifest.json', 'javascript:{version}', 7])(
    'drops an entry template without {version} or an http address (%p)',
    (entryTemplate) => {
      const map = parseRemoteMap({
        remotes: { 'remote-title': { stable: stable('1.3.0', 'http://cdn/1.3.0/mf-manifest.json'), entryTemplate } },
      });
      expect(map.remotes['remote-title']?.entryTemplate).toBeUndefined();
    },
  );
});
