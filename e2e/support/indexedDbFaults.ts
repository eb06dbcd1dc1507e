import type { BrowserContext, Page } from '@playwright/test';

// IndexedDB refused before any page script runs, as private windows, locked-down profiles and
// full disks do. Firebase keeps its session in IndexedDB too ('firebaseLocalStorageDb'), so a
// fault can be limited to Netnet's own database.

export type StorageFault = 'open throws' | 'open fails';

export interface StorageFaultOptions {
  /** Only this database is refused (default: every database). */
  only?: string;
}

export async function refuseIndexedDB(target: Page | BrowserContext, fault: StorageFault, { only }: StorageFaultOptions = {}) {
  await target.addInitScript(
    ({ fault, only }) => {
      const factory = window.indexedDB;
      const open = factory.open.bind(factory);
      // A database a step ahead of any version asked for: opening it fails with a VersionError,
      // a real request that fails the way a refused or corrupted store does. Requests on one
      // database run in order, so this one is in place before anything else asks.
      const AHEAD = '__refused_by_the_faults_suite__';
      const ahead = open(AHEAD, 1_000_000);
      ahead.onsuccess = () => ahead.result.close();
      factory.open = (name: string, version?: number) => {
        if (only !== undefined && name !== only) return open(name, version);
        if (fault === 'open throws') {
          throw new DOMException('The user denied permission to access the database.', 'SecurityError');
        }
        return open(AHEAD, 1);
      };
    },
    { fault, only },
  );
}
