// The local database (My list and ratings), shared so the title page, the browse heroes and
// /my-list read and write the same records.
export { StoreUnavailableError, DB_NAME, DB_VERSION, closeDatabase } from './db';
export { onStoreChange, type StoreChange } from './changes';
export { listSaved, isSaved, save, remove, type TitleRef } from './titles';
export { isRated, setRated } from './ratings';
export { NOTICE_MS, type FlagStatus } from './useStoredFlag';
export {
  useSavedTitle,
  useRated,
  useSavedTitles,
  LIST_UNAVAILABLE,
  LIST_FAILED,
  RATING_UNAVAILABLE,
  RATING_FAILED,
  type SavedTitleState,
  type RatedState,
  type SavedTitlesState,
  type SavedTitlesResult,
} from './hooks';
