import { getDefaultStore } from 'jotai';
import { authAtom } from '@netnet/shared';
import type { RemoteMap } from '../federation/remoteMap';
import { remoteNames, type RemoteName } from '../federation/remotes';
import { idCookie } from '../rollout/cookies';
import { bucketIdentity } from '../rollout/identity';
import { createRemoteVersions } from '../rollout/remoteVersions';
import { releaseFor } from './releaseFor';

// The server must pick, for a request's cookies, the release the browser then picks for the same
// browser: otherwise hydration would load another release than the one the page was rendered with.

const CANARY_PERCENT = 30;

const release = (remote: RemoteName, version: string) => ({
  version,
  entry: `https://cdn.test/${remote}/${version}/mf-manifest.json`,
});

const map: RemoteMap = {
  remotes: Object.fromEntries(
    remoteNames.map((remote) => [
      remote,
      {
        stable: release(remote, '1.0.0'),
        canary: { ...release(remote, '1.1.0'), percent: CANARY_PERCENT },
        pinnable: [],
      },
    ]),
  ),
};

// Ids shaped like the real ones, from a fixed seed so a failure can be replayed.
let seed = 20261123;
/** mulberry32: 32 well-mixed bits per call. */
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
};
const hex = (length: number) => Array.from({ length }, () => (random() % 16).toString(16)).join('');
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const deviceIds = Array.from({ length: 200 }, () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`);
const memberUids = Array.from({ length: 200 }, () =>
  Array.from({ length: 28 }, () => ALPHANUMERIC[random() % ALPHANUMERIC.length]).join(''),
);

const store = getDefaultStore();
const rolloutOf = (remote: RemoteName) => map.remotes[remote]!;

/** What a fresh page in the browser loads for `remote`, as the shell's boot sets it up. */
const browserChoice = (remote: RemoteName) =>
  createRemoteVersions({ map, overrides: {}, identity: bucketIdentity }).choose(remote);

function asVisitor(device: string): void {
  document.cookie = idCookie('netnet-device', device);
  store.set(authAtom, { status: 'anonymous' });
}

function asMember(uid: string, device: string): void {
  document.cookie = idCookie('netnet-device', device);
  store.set(authAtom, { status: 'authenticated', member: { uid, email: null } });
}

afterEach(() => {
  document.cookie = 'netnet-device=; Path=/; Max-Age=0';
  store.set(authAtom, { status: 'loading' });
});

describe.each(remoteNames)('%s', (remote) => {
  it('gives a visitor the release the browser picks from the same device cookie', () => {
    const channels = new Set<string>();
    for (const device of deviceIds) {
      const server = releaseFor(remote, rolloutOf(remote), { member: null, device });
      asVisitor(device);
      expect({ device, choice: browserChoice(remote) }).toEqual({ device, choice: server });
      channels.add(server.channel);
    }
    // Both sides of the canary's share were compared, not only one.
    expect([...channels].sort()).toEqual(['canary', 'stable']);
  });

  it('gives a member the release the browser picks once signed in as the same uid', () => {
    const channels = new Set<string>();
    memberUids.forEach((uid, i) => {
      const device = deviceIds[i]!;
      const server = releaseFor(remote, rolloutOf(remote), { member: uid, device });
      asMember(uid, device);
      expect({ uid, choice: browserChoice(remote) }).toEqual({ uid, choice: server });
      channels.add(server.channel);
    });
    expect([...channels].sort()).toEqual(['canary', 'stable']);
  });

  it('buckets a member by uid whatever device they are on', () => {
    let deviceWouldDiffer = 0;
    memberUids.forEach((uid, i) => {
      const alone = releaseFor(remote, rolloutOf(remote), { member: uid, device: deviceIds[0]! });
      for (const device of [deviceIds[i]!, deviceIds[(i + 1) % deviceIds.length]!]) {
        expect(releaseFor(remote, rolloutOf(remote), { member: uid, device })).toEqual(alone);
        if (releaseFor(remote, rolloutOf(remote), { member: null, device }).channel !== alone.channel) deviceWouldDiffer += 1;
      }
    });
    // Cases where the device alone would have picked the other release: the test can tell.
    expect(deviceWouldDiffer).toBeGreaterThan(20);
  });
});

it('puts about the canary’s share of visitors in the canary', () => {
  const inCanary = deviceIds.filter(
    (device) => releaseFor('remote-title', rolloutOf('remote-title'), { member: null, device }).channel === 'canary',
  ).length;
  expect(inCanary / deviceIds.length).toBeGreaterThan(0.2);
  expect(inCanary / deviceIds.length).toBeLessThan(0.4);
});
