// Run: node --import tsx --test server-kit/src/rateLimit.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRateLimit } from './rateLimit.ts';

describe('createRateLimit (a token bucket per client)', () => {
  it('lets a burst through, then says how many seconds to wait', () => {
    let now = 0;
    const limit = createRateLimit({ burst: 2, perSecond: 0.5 }, () => now);
    assert.deepEqual([limit.take('a'), limit.take('a'), limit.take('a')], [0, 0, 2]);
    now = 1000;
    assert.equal(limit.take('a'), 1);
    now = 2000;
    assert.deepEqual([limit.take('a'), limit.take('a')], [0, 2]);
  });

  it('keeps each client to its own bucket, and never refills beyond the burst', () => {
    let now = 0;
    const limit = createRateLimit({ burst: 1, perSecond: 1 }, () => now);
    assert.deepEqual([limit.take('10.0.0.1'), limit.take('10.0.0.1'), limit.take('10.0.0.2')], [0, 1, 0]);
    now = 60_000;
    assert.deepEqual([limit.take('10.0.0.1'), limit.take('10.0.0.1')], [0, 1]);
  });

  it('keeps at most maxClients buckets, forgetting idle clients first', () => {
    let now = 0;
    const limit = createRateLimit({ perSecond: 1, burst: 2, maxClients: 3 }, () => now);
    assert.deepEqual([limit.take('a'), limit.take('a'), limit.take('a')], [0, 0, 1]);
    for (const client of ['b', 'c', 'd']) limit.take(client);
    assert.ok(limit.clients <= 3);
    now += 10_000;
    limit.take('e');
    assert.equal(limit.clients, 1);
  });
});
