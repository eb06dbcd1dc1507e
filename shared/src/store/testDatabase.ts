// Test helpers (imported by *.test.ts only): a fresh fake IndexedDB per test, and a way to
// make this browser look as if it had none.
import { IDBFactory } from 'fake-indexeddb';
import { closeDatabase } from './db';

export async function freshIndexedDB(): Promise<void> {
  await closeDatabase();
  globalThis.indexedDB = new IDBFactory();
}

export async function withoutIndexedDB(replacement: unknown = undefined): Promise<void> {
  await closeDatabase();
  Object.defineProperty(globalThis, 'indexedDB', { value: replacement, configurable: true, writable: true });
}

/** Writes a record as some other code (or a corrupted profile) might have left it. */
export async function putRaw(store: 'titles' | 'rated', record: unknown): Promise<void> {
  const { database } = await import('./db');
  const db = await database();
  await (db as unknown as { put(store: string, value: unknown): Promise<unknown> }).put(store, record);
}
