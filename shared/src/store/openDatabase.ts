import { openDB } from 'idb';
import { DB_NAME, DB_VERSION, type NetnetDatabase, type NetnetSchema } from './schema';

/**
 * Opens (creating or upgrading) the local database described in db.ts. Loaded with the first
 * database call. `onGone` runs when another tab upgrades or deletes it, after this connection
 * closed, so the next call reopens it.
 */
export async function openNetnetDatabase(onGone: () => void): Promise<NetnetDatabase> {
  const db: NetnetDatabase = await openDB<NetnetSchema>(DB_NAME, DB_VERSION, {
    upgrade(upgrading) {
      for (const name of ['titles', 'rated'] as const) {
        if (!upgrading.objectStoreNames.contains(name)) {
          upgrading.createObjectStore(name, { keyPath: ['uid', 'type', 'id'] }).createIndex('uid', 'uid');
        }
      }
    },
    blocking() {
      db.close();
      onGone();
    },
    terminated: onGone,
  });
  return db;
}
