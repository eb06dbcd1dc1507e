import { bucketOf } from './bucket.ts';
import { chooseRelease } from './chooseRelease.ts';
import type { RemoteRollout } from './map.ts';

const cdn = (version: string) => `https://cdn.example.com/remote-title/${version}/mf-manifest.json`;
const rollout = (percent: number, extra: Partial<RemoteRollout> = {}): RemoteRollout => ({
  stable: { version: '1.3.0', entry: cdn('1.3.0') },
  canary: { version: '1.4.0', entry: cdn('1.4.0'), percent },
  pinnable: ['1.2.0', '1.3.0', '1.4.0'].map((version) => ({ version, entry: cdn(version) })),
  ...extra,
});

/** The first generated id whose bucket for remote-title is inside (or outside) a canary of `percent`. */
function idWhere(inside: boolean, percent: number): string {
  for (let i = 0; ; i += 1) {
    if (bucketOf('remote-title', `id-${i}`) < percent === inside) return `id-${i}`;
  }
}

beforeEach(() => jest.spyOn(console, 'warn').mockImplementation(() => {}));

it('gives a member inside the canary share the canary, with their bucket', () => {
  const identity = idWhere(true, 10);
  expect(chooseRelease('remote-title', rollout(10), { identity })).toEqual({
    version: '1.4.0',
    entry: cdn('1.4.0'),
    channel: 'canary',
    bucket: bucketOf('remote-title', identity),
  });
});

it('gives a member outside the share, or everyone when there is no canary, the stable release', () => {
  const identity = idWhere(false, 10);
  expect(chooseRelease('remote-title', rollout(10), { identity })).toMatchObject({ version: '1.3.0', channel: 'stable' });
  expect(chooseRelease('remote-title', { stable: { version: '1.3.0', entry: cdn('1.3.0') }, pinnable: [] }, { identity: idWhere(true, 10) })).toMatchObject({
    version: '1.3.0',
    channel: 'stable',
  });
});

it('always gives the same member the same release', () => {
  const picks = new Set(Array.from({ length: 5 }, () => chooseRelease('remote-title', rollout(50), { identity: 'uid-42' }).version));
  expect(picks.size).toBe(1);
});

it('a QA pin wins over the buckets: any version the map lists as pinnable', () => {
  const identity = idWhere(false, 10);
  expect(chooseRelease('remote-title', rollout(10), { identity, override: '1.2.0' })).toMatchObject({
    version: '1.2.0',
    entry: cdn('1.2.0'),
    channel: 'override',
  });
  expect(chooseRelease('remote-title', rollout(0), { identity, override: '1.4.0' })).toMatchObject({
    version: '1.4.0',
    entry: cdn('1.4.0'),
    channel: 'override',
  });
});

it('a pin on the stable version is simply stable, even for a member in the canary', () => {
  expect(chooseRelease('remote-title', rollout(100), { identity: 'anyone', override: '1.3.0' })).toMatchObject({
    version: '1.3.0',
    channel: 'stable',
  });
});

it('a version the map does not list as pinnable (rolled back, or pins not allowed here) is not honoured: the buckets decide', () => {
  const choice = chooseRelease('remote-title', rollout(0), { identity: 'x', override: '0.9.0' });
  expect(choice).toMatchObject({ version: '1.3.0', entry: cdn('1.3.0'), channel: 'stable' });
  expect(console.warn).toHaveBeenCalledWith('[netnet] remote-title cannot be pinned to 0.9.0 here: the map does not list it as pinnable.');
  expect(chooseRelease('remote-title', rollout(0, { pinnable: [] }), { identity: 'x', override: '1.4.0' })).toMatchObject({ version: '1.3.0', channel: 'stable' });
});

it('a chosen release keeps the hashes the map gives for it', () => {
  const integrity = { 'mf-manifest.json': 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC' };
  const withHashes = rollout(0, { pinnable: [{ version: '1.2.0', entry: cdn('1.2.0'), integrity }] });
  expect(chooseRelease('remote-title', withHashes, { identity: 'x', override: '1.2.0' })).toEqual({
    version: '1.2.0',
    entry: cdn('1.2.0'),
    integrity: { 'mf-manifest.json': 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC' },
    channel: 'override',
    bucket: bucketOf('remote-title', 'x'),
  });
});
