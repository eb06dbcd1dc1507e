// A fresh fake IndexedDB per test, and a way to make this browser look as if it had none.
import { IDBFactory } from 'fake-indexeddb';
import { closeDatabase } from '@netnet/shared';

export async function freshIndexedDB(): Promise<void> {
  await closeDatabase();
  globalThis.indexedDB = new IDBFactory();
}

export async function withoutIndexedDB(replacement: unknown = undefined): Promise<void> {
  await closeDatabase();
  Object.defineProperty(globalThis, 'indexedDB', { value: replacement, configurable: true, writable: true });
}

/**
 * A browser whose IndexedDB refuses to open (busy, or slow past the open's timeout) until
 * `answer()` is called; then it opens the usual (fake) one, with what that one holds.
 */
export async function busyIndexedDB(): Promise<{ answer(): void }> {
  const usual: IDBFactory = globalThis.indexedDB ?? new IDBFactory();
  let refusing = true;
  await withoutIndexedDB({
    open(name: string, version?: number) {
      if (refusing) throw new DOMException('busy', 'UnknownError');
      return usual.open(name, version);
    },
  });
  return {
    answer() {
      refusing = false;
    },
  };
}
