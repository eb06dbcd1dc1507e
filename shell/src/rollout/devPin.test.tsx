// Dev pins in the shell (docs/releases.md, "Develop against the real site"): the same loopback rule
// as the shell's server (control-plane/src/deploy/devPin.ts, checked here against it), a map's dev
// server loaded only when loopback, chosen before anything else and never hashed, refusals told.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { render, screen } from '@testing-library/react';
import { parseRemoteMap, type RemoteMap } from '../federation/remoteMap';
import { chooseRelease } from './chooseRelease';
import { loopbackOrigin, TOKEN_NEEDED } from '@netnet/shared/dev-pin';
import { clearDevPinsHref, devPinParams } from './devPin';
import { pinsForPage, withoutOverrideParams } from './overrides';
import { RolloutNotices } from './RolloutNotices';
import { recordRemote, startRolloutStatus } from './rolloutStatus';

beforeEach(() => {
  localStorage.clear();
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});

const values = [
  'http://localhost:3003',
  'http://localhost:3003/',
  'http://127.0.0.1:5173',
  'http://[::1]:3003',
  'http://example.com:3003',
  'https://localhost:3003',
  'http://localhost',
  'http://localhost:80',
  'http://localhost.example.com:3003',
  'http://127.0.0.2:3003',
  'http://0x7f000001:3003',
  'http://LOCALHOST:3003',
  'http://user@localhost:3003',
  'http://localhost:3003/remote',
  'http://localhost:3003?x=1',
  'http://[::ffff:127.0.0.1]:3003',
  'javascript:alert(1)',
  'localhost:3003',
  '',
];
const accepted = new Set(['http://localhost:3003', 'http://localhost:3003/', 'http://127.0.0.1:5173', 'http://[::1]:3003']);

// The server's rule is TypeScript, which Node runs under the tsx loader as the servers do.
function serverAnswers(list: string[]): unknown[] {
  const module = resolve(__dirname, '../../../control-plane/src/deploy/devPin.ts');
  const program = `import { loopbackOrigin } from ${JSON.stringify(module)};
    console.log(JSON.stringify(JSON.parse(process.argv[1]).map(loopbackOrigin)));`;
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return JSON.parse(execFileSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', program, JSON.stringify(list)], { encoding: 'utf8' })) as unknown[];
}

describe('loopbackOrigin', () => {
  const server = serverAnswers(values);
  it.each(values.map((value, index) => ({ value, index })))('$value: the same answer as the server', ({ value, index }) => {
    const answer = loopbackOrigin(value);
    expect('origin' in answer).toBe(accepted.has(value));
    expect(answer).toEqual(server[index]);
  });
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
    expect(pins.refusedDevServers).toEqual({});
    expect(localStorage.getItem('netnet:remote-overrides')).toBeNull();
  });

  it('says why a dev pin was refused: not loopback, or not accepted by the server (no valid token)', () => {
    const map = parseRemoteMap(rawMap());
    const pins = pinsForPage('?remote.remote-title=dev:http://evil.example:3003&remote.remote-search=dev:http://localhost:3004', map);
    expect(pins.devServers).toEqual({});
    expect(pins.refusedDevServers['remote-title']).toMatch(/^http:\/\/evil\.example:3003 is refused: only a dev server on this machine can be pinned/);
    expect(pins.refusedDevServers['remote-search']).toBe(`http://localhost:3004 is refused: ${TOKEN_NEEDED}`);
  });

  it('reads dev pins from the address: the last one per remote, none after a version or clear', () => {
    expect(devPinParams('?remote.remote-title=dev:http://localhost:3003&remote.remote-search=dev:http://localhost:1&remote.remote-search=clear')).toEqual({
      'remote-title': { origin: 'http://localhost:3003' },
    });
  });
});

describe('the banner', () => {
  it('says the area comes from the dev server, in this browser only', () => {
    startRolloutStatus({ debug: false, overrides: {}, devServers: { 'remote-title': 'http://localhost:3003' } });
    render(<RolloutNotices />);
    expect(screen.getByRole('status')).toHaveTextContent('remote-title comes from the dev server at http://localhost:3003, in this browser only.');
    expect(screen.getByRole('button', { name: 'Clear overrides' })).toBeInTheDocument();
  });

  it('says when the dev server did not load and members\' release stood in', () => {
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
    expect(screen.getByRole('status')).toHaveTextContent(
      'remote-title comes from the dev server at http://localhost:3003, in this browser only. It did not load (is it running?): this page shows what members get.',
    );
  });

  it('says why a dev pin was refused', () => {
    startRolloutStatus({ debug: false, overrides: {}, refusedDevServers: { 'remote-title': 'http://evil.example:1 is refused: nope' } });
    render(<RolloutNotices />);
    expect(screen.getByRole('status')).toHaveTextContent('Dev server not pinned for remote-title: http://evil.example:1 is refused: nope. This page loads what members get.');
    expect(screen.queryByRole('button', { name: 'Clear overrides' })).not.toBeInTheDocument();
  });

  it('clears a dev pin through the server, which holds its cookie; the parameters leave the address again at boot', () => {
    const href = clearDevPinsHref('https://netnet.test/title/604?debug', ['remote-title']);
    expect(href).toBe('https://netnet.test/title/604?debug&remote.remote-title=clear');
    expect(withoutOverrideParams(href)).toBe('https://netnet.test/title/604?debug');
  });
});
