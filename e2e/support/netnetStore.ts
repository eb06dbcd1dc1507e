import type { Page } from '@playwright/test';

// Netnet's own IndexedDB database ('netnet', version 1, stores 'titles' and 'rated'), read and
// written from the page the way another tab, an old version or a corrupted profile could.

export type StoreName = 'titles' | 'rated';

export function readRecords(page: Page, store: StoreName): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    (name) =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const open = indexedDB.open('netnet', 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction(name).objectStore(name).getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result as Record<string, unknown>[]);
          };
          all.onerror = () => reject(all.error);
        };
      }),
    store,
  );
}

/** Puts records as they are, junk included; the database must already exist (Netnet opened it). */
export function putRecords(page: Page, store: StoreName, records: unknown[]): Promise<void> {
  return page.evaluate(
    ({ name, records }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('netnet', 1);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const transaction = db.transaction(name, 'readwrite');
          for (const record of records) transaction.objectStore(name).put(record);
          transaction.oncomplete = () => {
            db.close();
            resolve();
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    { name: store, records },
  );
}

/** Leaves a 'netnet' database at version 1 without its stores, as a half-finished upgrade might. */
export function replaceWithEmptyDatabase(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const removal = indexedDB.deleteDatabase('netnet');
        removal.onerror = () => reject(removal.error);
        removal.onsuccess = () => {
          const open = indexedDB.open('netnet', 1);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            open.result.close();
            resolve();
          };
        };
      }),
  );
}
