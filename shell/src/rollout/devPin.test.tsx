// Dev pins in the shell (docs/releases.md, "Develop against the real site"): a map's dev server
// loaded only when loopback (the rule of @netnet/rollout/dev-pin, the server's too), chosen before
// anything else and never hashed, refusals told.
import { render, screen } from '@testing-library/react';
import { parseRemoteMap, type RemoteMap } from '../federation/remoteMap';
import { chooseRelease } from '@netnet/rollout';
import { TOKEN_NEEDED } from '@netnet/rollout/dev-pin';
import { clearDevPinsHref, devPinParams, refusedDevPins } from './devPin';
import { pinsForPage, withoutOverrideParams } from './overrides';
import { RolloutNotices } from './RolloutNotices';
import { recordRemote, startRolloutStatus } from './rolloutStatus';

beforeEach(() => {
  localStorage.clear();
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});

const release = (version: string) => ({ version, entry: `https://cdn.test/remote-title/${version}/mf-manifest.json` });
const rawMap = (dev?: unknown) => ({
  remotes: { 'remote-title': { stable: release('1.0.0'), canary: { ...release('1.4.0'), percent: 100 }, pinnable: [release('1.4.0')], ...(dev !== undefined && { dev }) } },
});

describe('the map', () => {
  it("takes a loopback dev server, and the browser loads the remote from it before any pin or canary, without hashes", () => {
    const map = parseRemoteMap(rawMap({ origin: 'http://localhost:3003', entry: 'http://localhost:3003/mf-manifest.json' }));
    const choice = chooseRelease('remote-title', map.remotes['remote-title']!, { identity: 'someone', override: '1.4.0' });
    expect(choice).toEqual({ version: 'dev', entry: 'http://localhost:3003/mf-manifest.json', channel: 'dev', bucket: expect.any(Number) });
    expect(choice.integrity).toBeUndefined();
  });

  it.each([
    { origin: 'http://evil.example:3003', entry: 'http://evil.example:3003/mf-manifest.json' },
    { origin: 'http://localhost:3003', entry: 'http://evil.example:3003/mf-manifest.json' },
    { origin: 'http://localhost:3003', entry: 'http://localhost:3003/other/mf-manifest.json' },
    'http://localhost:3003',
  ])('never loads a dev server that is not loopback, or whose entry is elsewhere (%j)', (dev) => {
    const map = parseRemoteMap(rawMap(dev));
    expect(map.remotes['remote-title']?.dev).toBeUndefined();
    expect(chooseRelease('remote-title', map.remotes['remote-title']!, { identity: 'someone' }).channel).toBe('canary');
  });
});

describe('pinsForPage', () => {
  const pinnedMap = (): RemoteMap => parseRemoteMap(rawMap({ origin: 'http://localhost:3003', entry: 'http://localhost:3003/mf-manifest.json' }));

  it('lists the dev server the map names, and a version pin of the same remote gives way to it', () => {
    localStorage.setItem('netnet:remote-overrides', JSON.stringify({ 'remote-title': '1.4.0' }));
    const pins = pinsForPage('?qa-token=x&remote.remote-title=dev:http://localhost:3003', pinnedMap());
    expect(pins.devServers).toEqual({ 'remote-title': 'http://localhost:3003' });
    expect(pins.honoured).toEqual({});
    expect(refusedDevPins(pins.askedDevPins, pins.devServers)).toEqual({});
    expect(localStorage.getItem('netnet:remote-overrides')).toBeNull();
  });

  it('says why a dev pin was refused: not loopback, or not accepted by the server (no valid token)', () => {
    const map = parseRemoteMap(rawMap());
    const search = '?remote.remote-title=dev:http://evil.example:3003&remote.remote-search=dev%3Ahttp://localhost:3004';
    const pins = pinsForPage(search, map);
    expect(pins.devServers).toEqual({});
    expect(pins.askedDevPins).toBe(search);
    const refused = refusedDevPins(pins.askedDevPins, pins.devServers);
    expect(refused['remote-title']).toMatch(/^http:\/\/evil\.example:3003 is refused: only a dev server on this machine can be pinned/);
    expect(refused['remote-search']).toBe(`http://localhost:3004 is refused: ${TOKEN_NEEDED}`);
    // A page that asks for no dev pin has nothing to say, and loads no banner for it.
    expect(pinsForPage('?remote.remote-title=1.4.0&debug', map).askedDevPins).toBe('');
  });

  it('reads dev pins from the address: the last one per remote, none after a version or clear', () => {
    expect(devPinParams('?remote.remote-title=dev:http://localhost:3003&remote.remote-search=dev:http://localhost:1&remote.remote-search=clear')).toEqual({
      'remote-title': { origin: 'http://localhost:3003' },
    });
  });
});

describe('the banner', () => {
  it('says the area comes from the dev server, in this browser only', async () => {
    startRolloutStatus({ debug: false, overrides: {}, devServers: { 'remote-title': 'http://localhost:3003' } });
    render(<RolloutNotices />);
    expect(await screen.findByRole('status')).toHaveTextContent('remote-title comes from the dev server at http://localhost:3003, in this browser only.');
    expect(screen.getByRole('button', { name: 'Clear overrides' })).toBeInTheDocument();
  });

  it('says when the dev server did not load and members\' release stood in', async () => {
    startRolloutStatus({ debug: false, overrides: {}, devServers: { 'remote-title': 'http://localhost:3003' } });
    recordRemote('remote-title', {
      version: '1.0.0',
      channel: 'stable',
      entry: 'https://cdn.test/remote-title/1.0.0/mf-manifest.json',
      bucket: 1,
      state: 'loaded',
      fellBackFrom: { version: 'dev', channel: 'dev', reason: 'Failed to load script resources' },
    });
    render(<RolloutNotices />);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'remote-title comes from the dev server at http://localhost:3003, in this browser only. It did not load (is it running?): this page shows what members get.',
    );
  });

  it('says why a dev pin was refused', async () => {
    startRolloutStatus({ debug: false, overrides: {}, askedDevPins: '?remote.remote-title=dev:http://localhost:3005' });
    render(<RolloutNotices />);
    expect(await screen.findByRole('status')).toHaveTextContent(
      `Dev server not pinned for remote-title: http://localhost:3005 is refused: ${TOKEN_NEEDED}. This page loads what members get.`,
    );
    expect(screen.queryByRole('button', { name: 'Clear overrides' })).not.toBeInTheDocument();
  });

  it('clears a dev pin through the server, which holds its cookie; the parameters leave the address again at boot', () => {
    const href = clearDevPinsHref('https://netnet.test/title/604?debug', ['remote-title']);
    expect(href).toBe('https://netnet.test/title/604?debug&remote.remote-title=clear');
    expect(withoutOverrideParams(href)).toBe('https://netnet.test/title/604?debug');
  });
});
