import { createRateLimiter } from './rateLimit';

describe('createRateLimiter (a token bucket per client)', () => {
  it('lets a burst through, then says how many seconds to wait', () => {
    let now = 0;
    const limiter = createRateLimiter({ burst: 2, perSecond: 0.5, now: () => now });
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(2);
    now = 1000;
    expect(limiter.take('a')).toBe(1);
    now = 2000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(2);
  });

  it('keeps each client to its own bucket', () => {
    const limiter = createRateLimiter({ burst: 1, perSecond: 1, now: () => 0 });
    expect(limiter.take('10.0.0.1')).toBe(0);
    expect(limiter.take('10.0.0.1')).toBe(1);
    expect(limiter.take('10.0.0.2')).toBe(0);
  });

  it('never refills beyond the burst', () => {
    let now = 0;
    const limiter = createRateLimiter({ burst: 2, perSecond: 10, now: () => now });
    now = 60_000;
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 1]);
  });

  it('remembers a bounded number of clients', () => {
    const limiter = createRateLimiter({ burst: 1, perSecond: 1, maxClients: 2, now: () => 0 });
    for (const client of ['a', 'b', 'c']) limiter.take(client);
    expect(limiter.clients).toBe(2);
  });
});
