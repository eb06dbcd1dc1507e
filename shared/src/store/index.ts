// The local database, shared so every view of a record reads and writes the same one: My list
// (the title page, the browse heroes, /my-list) lives here; ratings live with the title page and
// use the database, the change events and the flag hook from here.
export { StoreUnavailableError, DB_NAME, DB_VERSION, closeDatabase, database, isStoredRating } from './db';
export { onStoreChange, emitStoreChange, type StoreChange } from './changes';
export { listSaved, isSaved, save, remove, type TitleRef } from './titles';
export { NOTICE_MS, useStoredFlag, type FlagStatus } from './useStoredFlag';
export {
  useSavedTitle,
  useSavedTitles,
  LIST_UNAVAILABLE,
  LIST_FAILED,
  type SavedTitleState,
  type SavedTitlesState,
  type SavedTitlesResult,
} from './hooks';
