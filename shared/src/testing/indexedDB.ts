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
