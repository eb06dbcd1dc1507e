import { Lru } from './lru';

describe('Lru', () => {
  it('evicts the least recently used entry beyond its size', () => {
    const lru = new Lru<string, number>({ maxEntries: 2 });
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
  });

  it('forgets entries older than the TTL', () => {
    let now = 1000;
    const lru = new Lru<string, number>({ maxEntries: 10, ttlMs: 100, now: () => now });
    lru.set('a', 1);
    now += 100;
    expect(lru.get('a')).toBe(1);
    now += 1;
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it('keeps within a byte budget and refuses what can never fit', () => {
    const lru = new Lru<string, string>({ maxEntries: 100, maxBytes: 10, sizeOf: (v) => v.length });
    lru.set('a', '12345');
    lru.set('b', '12345');
    lru.set('c', '1');
    expect(lru.get('a')).toBeUndefined();
    expect(lru.get('b')).toBe('12345');
    lru.set('huge', '12345678901');
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.get('b')).toBe('12345');
  });
});

describe('Lru byte budget', () => {
  it('counts what sizeOf says about the key as well as the value', () => {
    const lru = new Lru<string, string>({ maxEntries: 100, maxBytes: 100, sizeOf: (value, key) => value.length + key.length });
    lru.set('k'.repeat(60), 'v');
    lru.set('j'.repeat(60), 'v');
    expect(lru.size).toBe(1);
    expect(lru.bytes).toBe(61);
  });
});
