import { parseRemoteMap, RemoteMapError } from './remoteMap';

describe('parseRemoteMap', () => {
  it('keeps the known remotes with http(s) entries', () => {
    const map = parseRemoteMap({
      remotes: {
        'remote-title': { entry: 'http://localhost:3003/mf-manifest.json' },
        'remote-search': { entry: 'https://cdn.example.com/search/mf-manifest.json' },
        'remote-unknown': { entry: 'http://elsewhere/mf-manifest.json' },
      },
    });
    expect(map.remotes).toEqual({
      'remote-title': { entry: 'http://localhost:3003/mf-manifest.json' },
      'remote-search': { entry: 'https://cdn.example.com/search/mf-manifest.json' },
    });
  });

  it.each([null, 'text', 42, {}, { remotes: null }, { remotes: 'x' }])('refuses a malformed map (%p)', (value) => {
    expect(() => parseRemoteMap(value)).toThrow(RemoteMapError);
  });

  it.each(['javascript:alert(1)', 42, ''])('refuses an entry that is not an http address (%p)', (entry) => {
    expect(() => parseRemoteMap({ remotes: { 'remote-auth': { entry } } })).toThrow(/remote-auth/);
  });
});
