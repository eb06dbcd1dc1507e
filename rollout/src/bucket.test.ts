import { bucketOf, hash32, inCanary } from './bucket.ts';

const population = (size: number, make: (i: number) => string) => Array.from({ length: size }, (_, i) => make(i));

// Ids as they come: Firebase-like uids, sequential test ids and device UUIDs.
const uids = population(10_000, (i) => `uid${(i * 2654435761).toString(36).padStart(10, '0').slice(-10)}x${i}`);
const sequential = population(10_000, (i) => `member-${i}`);
const uuids = population(10_000, (i) => `${(i * 7919).toString(16).padStart(8, '0')}-4a1b-9c2d-8e3f-${i.toString(16).padStart(12, '0')}`);

function share(ids: string[], remote: string, percent: number): number {
  const inside = ids.filter((id) => inCanary(bucketOf(remote, id), percent)).length;
  return (inside / ids.length) * 100;
}

describe('bucketOf', () => {
  // Written-out values (from an independent FNV-1a + murmur3-finaliser implementation): a change
  // to the hash would move members between versions mid-rollout, so it must be deliberate.
  it('hashes FNV-1a then mixes with murmur3’s finaliser', () => {
    expect(hash32('a')).toBe(444_641_715); // FNV-1a('a') is the published 0xe40c292c
    expect(hash32('remote-title:uid-123')).toBe(1_326_107_372);
  });

  it('is the same number in [0, 100) for the same remote and id, on every device', () => {
    expect(bucketOf('remote-title', 'uid-123')).toBeCloseTo(30.8758, 4);
    expect(bucketOf('remote-search', 'uid-123')).toBeCloseTo(49.0309, 4);
  });

  it.each([
    ['uids', uids],
    ['sequential ids', sequential],
    ['device UUIDs', uuids],
  ])('puts 10%% and 50%% of 10,000 %s in the canary, within 2 points', (_kind, ids) => {
    for (const remote of ['remote-title', 'remote-search']) {
      expect(Math.abs(share(ids, remote, 10) - 10)).toBeLessThanOrEqual(2);
      expect(Math.abs(share(ids, remote, 50) - 50)).toBeLessThanOrEqual(2);
    }
  });

  it('serves nobody at 0% and everybody at 100%', () => {
    expect(share(sequential, 'remote-title', 0)).toBe(0);
    expect(share(sequential, 'remote-title', 100)).toBe(100);
  });

  it('raising the percentage only adds members: those already in stay in', () => {
    const atTen = sequential.filter((id) => inCanary(bucketOf('remote-title', id), 10));
    expect(atTen.every((id) => inCanary(bucketOf('remote-title', id), 25))).toBe(true);
  });

  it('gives each remote its own buckets', () => {
    const inTitle = new Set(sequential.filter((id) => inCanary(bucketOf('remote-title', id), 50)));
    const inBoth = sequential.filter((id) => inTitle.has(id) && inCanary(bucketOf('remote-search', id), 50)).length;
    // Independent halves overlap on about a quarter of members, not on all of them.
    expect(Math.abs((inBoth / sequential.length) * 100 - 25)).toBeLessThanOrEqual(2);
  });
});
