import { createRemoteVersions } from './remoteVersions';
import { getRolloutStatus, startRolloutStatus } from './rolloutStatus';

const STABLE = { version: '1.3.0', entry: 'https://cdn.example/remote-title/1.3.0/mf-manifest.json' };
const CANARY = { version: '1.4.0', entry: 'https://cdn.example/remote-title/1.4.0/mf-manifest.json' };
const map = { remotes: { 'remote-title': { stable: STABLE, canary: { ...CANARY, percent: 100 }, pinnable: [] } } };

beforeEach(() => startRolloutStatus({ debug: false, overrides: {} }));

it('loads the release the server rendered with, and tells the page of the canary that failed on the server', () => {
  const fellBackFrom = { version: CANARY.version, channel: 'canary' as const, reason: 'on the server: Cannot read properties of undefined' };
  const versions = createRemoteVersions({
    map,
    overrides: {},
    identity: () => 'member-1',
    chosen: { 'remote-title': { ...STABLE, channel: 'stable', bucket: 12, fellBackFrom } },
  });
  expect(versions.choose('remote-title')).toEqual({ ...STABLE, channel: 'stable', bucket: 12 });
  expect(getRolloutStatus().remotes['remote-title']).toMatchObject({ version: STABLE.version, channel: 'stable', state: 'chosen', fellBackFrom });
  // Already on stable: nothing further to fall back to in the browser.
  expect(versions.fallBack('remote-title', 'the stable failed too')).toBeNull();
});

it('records no fallback for a release the server rendered as chosen', () => {
  const versions = createRemoteVersions({ map, overrides: {}, identity: () => 'member-1', chosen: { 'remote-title': { ...CANARY, channel: 'canary', bucket: 3 } } });
  expect(versions.choose('remote-title')).toMatchObject({ version: CANARY.version, channel: 'canary' });
  expect(getRolloutStatus().remotes['remote-title']?.fellBackFrom).toBeUndefined();
});
