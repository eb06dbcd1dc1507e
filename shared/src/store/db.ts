import type { MediaType } from '../types';
import type { NetnetDatabase, StoredRating, StoredTitle } from './schema';

/*
 * The local database (docs/product.md#local-database): IndexedDB 'netnet', version 1.
 *
 *   titles  key [uid, type, id]  value { uid, type, id, name, poster, addedAt }  index 'uid'
 *   rated   key [uid, type, id]  value { uid, type, id }                         index 'uid'
 *
 * The compound key keeps every member's list apart and keeps a movie and a series with the
 * same catalogue id apart; the 'uid' index lists one member's records. Records are read
 * defensively: anything that does not have this shape (hand-edited, half-written) is skipped.
 */

export { DB_NAME, DB_VERSION, type NetnetDatabase, type StoredRating, type StoredTitle, type TitleKey } from './schema';

/** IndexedDB cannot be used in this browser (missing, blocked, private mode, or it never answered). */
export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('The local database is not available in this browser.', { cause });
    this.name = 'StoreUnavailableError';
  }
}

// Some browsers leave indexedDB.open unanswered instead of failing; a member should not wait on it.
const OPEN_TIMEOUT_MS = 4000;

let opening: Promise<NetnetDatabase> | null = null;

function open(): Promise<NetnetDatabase> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const database = (async () => {
    if (typeof indexedDB === 'undefined') throw new Error('indexedDB is not defined');
    // Only members' pages open the database: the code that opens it (and its library) is not part
    // of every page's first load. Its download is not the browser's silence: the timeout starts after it.
    const { openNetnetDatabase } = await import(/* webpackChunkName: "idb" */ './openDatabase');
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('indexedDB.open did not answer')), OPEN_TIMEOUT_MS);
    });
    // Let another tab upgrade or delete the database; the next call reopens it.
    return Promise.race([openNetnetDatabase(() => (opening = null)), timeout]);
  })();
  return database
    .catch((error: unknown) => {
      throw new StoreUnavailableError(error);
    })
    .finally(() => clearTimeout(timer));
}

/** The open database, opened once per page; a browser without IndexedDB rejects with StoreUnavailableError. */
export function database(): Promise<NetnetDatabase> {
  const current = (opening ??= open());
  // A failure is not kept: a browser that was slow or busy once may answer the next call.
  current.catch(() => {
    if (opening === current) opening = null;
  });
  return current;
}

/** Closes the connection and forgets it, so the next call opens afresh (tests, and after deleting the database). */
export async function closeDatabase(): Promise<void> {
  const current = opening;
  opening = null;
  if (current) (await current.catch(() => null))?.close();
}

export const isMediaType = (value: unknown): value is MediaType => value === 'movie' || value === 'tv';

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

export function isStoredRating(value: unknown): value is StoredRating {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<StoredRating>;
  return typeof v.uid === 'string' && isMediaType(v.type) && isId(v.id);
}

export function isStoredTitle(value: unknown): value is StoredTitle {
  if (!isStoredRating(value)) return false;
  const v = value as Partial<StoredTitle>;
  return (
    typeof v.name === 'string' &&
    (v.poster === null || typeof v.poster === 'string') &&
    typeof v.addedAt === 'number' &&
    Number.isFinite(v.addedAt)
  );
}
