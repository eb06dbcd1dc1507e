import { useCallback } from 'react';
import { database, emitStoreChange, isStoredRating, useStoredFlag, type FlagStatus, type MediaType } from '@netnet/shared';

// Ratings (thumbs up) belong to the title page alone; the 'rated' store itself is part of the
// local database that shared defines (docs/product.md#local-database).

export const RATING_UNAVAILABLE = 'Ratings can’t be saved on this browser.';
export const RATING_FAILED = 'Your rating could not be saved. Please try again.';

export async function isRated(uid: string, type: MediaType, id: number): Promise<boolean> {
  const db = await database();
  return isStoredRating(await db.get('rated', [uid, type, id]));
}

export async function setRated(uid: string, type: MediaType, id: number, rated: boolean): Promise<void> {
  const db = await database();
  if (rated) await db.put('rated', { uid, type, id });
  else await db.delete('rated', [uid, type, id]);
  emitStoreChange({ store: 'rated', uid });
}

export interface RatedState {
  rated: boolean;
  status: FlagStatus;
  busy: boolean;
  error: string | null;
  note: string | null;
  toggle(): Promise<void>;
}

/** Whether the member rated this title, and the toggle (docs/product.md#my-list-rate-and-share). */
export function useRated(type: MediaType, id: number): RatedState {
  const read = useCallback((uid: string) => isRated(uid, type, id), [type, id]);
  const write = useCallback((uid: string, on: boolean) => setRated(uid, type, id, on), [type, id]);
  const { on, ...flag } = useStoredFlag({ store: 'rated', read, write, failure: RATING_FAILED, unavailable: RATING_UNAVAILABLE });
  return { rated: on, ...flag };
}
