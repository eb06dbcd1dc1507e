// A small LRU with optional TTL and byte budget (a Map keeps insertion order, so the first key
// is the least recently used).

export interface LruOptions<V, K = unknown> {
  maxEntries: number;
  /** Entries older than this are treated as absent. */
  ttlMs?: number;
  maxBytes?: number;
  /** An entry's cost against maxBytes. Count the key too when clients choose it (see keyBytes). */
  sizeOf?: (value: V, key: K) => number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  bytes: number;
  storedAt: number;
}

export class Lru<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private total = 0;

  constructor(private readonly options: LruOptions<V, K>) {}

  get size(): number {
    return this.entries.size;
  }

  /** What the entries cost by sizeOf. */
  get bytes(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const { ttlMs, now = Date.now } = this.options;
    if (ttlMs !== undefined && now() - entry.storedAt > ttlMs) {
      this.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.options.sizeOf?.(value, key) ?? 0;
    const { maxBytes = Infinity, now = Date.now } = this.options;
    if (bytes > maxBytes) return;
    this.entries.set(key, { value, bytes, storedAt: now() });
    this.total += bytes;
    while (this.entries.size > this.options.maxEntries || this.total > maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.total -= entry.bytes;
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}

/**
 * Heap a string key holds, roughly: two bytes a character (V8 may use one, never more than two)
 * plus the Map entry and string header.
 */
export const keyBytes = (key: string): number => 2 * key.length + 64;
