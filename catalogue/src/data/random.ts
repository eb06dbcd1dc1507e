// A small seeded PRNG: the same seed must give the same catalogue on every machine, which
// Math.random() cannot promise.

export type Random = () => number;

/** mulberry32: 32-bit state, fast, good enough for invented data (not for secrets). */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the parts, so a title's private stream depends only on (seed, type, id, purpose). */
export function hash32(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = typeof part === 'string' ? part : String(part);
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    // A separator, so ('ab', 'c') and ('a', 'bc') differ.
    h = Math.imul(h ^ 0xff, 0x01000193);
  }
  return h >>> 0;
}

/** A private stream for one purpose of one title: details can be derived lazily, in any order. */
export const streamFor = (...parts: Array<string | number>): Random => mulberry32(hash32(...parts));

export const int = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick() from an empty list');
  return item;
}

export const chance = (random: Random, probability: number): boolean => random() < probability;
