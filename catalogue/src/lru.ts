// A small LRU with optional TTL and byte budget (a Map keeps insertion order, so the first key
// is the least recently used).

export interface LruOptions<V> {
  maxEntries: number;
  /** Entries older than this are treated as absent. */
  ttlMs?: number;
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  bytes: number;
  storedAt: number;
}

export class Lru<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private bytes = 0;

  constructor(private readonly options: LruOptions<V>) {}

  get size(): number {
    return this.entries.size;
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
    const bytes = this.options.sizeOf?.(value) ?? 0;
    const { maxBytes = Infinity, now = Date.now } = this.options;
    if (bytes > maxBytes) return;
    this.entries.set(key, { value, bytes, storedAt: now() });
    this.bytes += bytes;
    while (this.entries.size > this.options.maxEntries || this.bytes > maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
