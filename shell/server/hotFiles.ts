// The hot files of the releases route (./releaseFiles.ts) kept in memory: each answer of a hashed
// release file is the same bytes for as long as its release is listed (a hashed name never changes
// content, and a release never changes), so the instance keeps the most recently asked for ones
// instead of finding and reading them again — and keeps answering them while its working folder
// is being made again. Bounded by bytes, least recently used first out; a file too big for a
// small share of it is never kept, so one large file cannot push out the many small hot ones.
import type { FoundFile } from './staticFiles.ts';

/** A kept answer: the file as findFile() found it (its validators, its encoding) and its bytes. */
export interface HotFile {
  file: FoundFile;
  body: Buffer;
}

export interface HotFiles {
  /** The kept answer for `key`, now the most recently used; undefined when not kept. */
  get(key: string): HotFile | undefined;
  /** Keeps `hot` under `key` unless it is too big, letting the least recently used go past the bound. */
  set(key: string, hot: HotFile): void;
  /** Whether a file of `size` bytes would be kept. */
  keeps(size: number): boolean;
  /** What is kept now. */
  usage(): { files: number; bytes: number };
}

/** 32 MiB: a few releases' hot chunks (a remote's are 100-300 KB precompressed), small beside an instance's heap. */
export const HOT_FILES_BYTES = 32 * 1024 * 1024;

/**
 * An LRU of hot files, at most `maxBytes` of bodies; a file over `maxBytes / 8` is never kept.
 * Keys say what the answer depends on beyond the file (the path and the encodings accepted).
 */
export function createHotFiles({ maxBytes = HOT_FILES_BYTES }: { maxBytes?: number } = {}): HotFiles {
  // A Map iterates in insertion order: taking an entry out and in again makes it the newest.
  const kept = new Map<string, HotFile>();
  let bytes = 0;
  const largest = Math.floor(maxBytes / 8);
  const drop = (key: string) => {
    const hot = kept.get(key);
    if (!hot) return;
    kept.delete(key);
    bytes -= hot.body.length;
  };
  return {
    get(key) {
      const hot = kept.get(key);
      if (hot) {
        kept.delete(key);
        kept.set(key, hot);
      }
      return hot;
    },
    set(key, hot) {
      if (hot.body.length > largest) return;
      drop(key);
      kept.set(key, hot);
      bytes += hot.body.length;
      for (const oldest of kept.keys()) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
    },
    keeps: (size) => size <= largest,
    usage: () => ({ files: kept.size, bytes }),
  };
}
