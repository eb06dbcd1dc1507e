import { useCallback, useEffect, useState } from 'react';
import type { MediaType, SavedTitle } from '../types';
import { onStoreChange } from './changes';
import { isSaved, listSaved, remove, save, type TitleRef } from './titles';
import { useMemberUid, useStoredFlag, type FlagStatus } from './useStoredFlag';

export const LIST_UNAVAILABLE = 'My list can’t be saved on this browser.';
export const LIST_FAILED = 'My list could not be updated. Please try again.';

export interface SavedTitleState {
  saved: boolean;
  status: FlagStatus;
  busy: boolean;
  error: string | null;
  note: string | null;
  toggle(): Promise<void>;
}

/** Whether the member keeps this title in My list, and the toggle (docs/product.md#my-list-rate-and-share). */
export function useSavedTitle({ id, type, name, poster }: TitleRef): SavedTitleState {
  const read = useCallback((uid: string) => isSaved(uid, type, id), [type, id]);
  const write = useCallback(
    (uid: string, on: boolean) => (on ? save(uid, { id, type, name, poster }) : remove(uid, type, id)),
    [id, type, name, poster],
  );
  const { on, ...flag } = useStoredFlag({ store: 'titles', read, write, failure: LIST_FAILED, unavailable: LIST_UNAVAILABLE });
  return { saved: on, ...flag };
}

export type SavedTitlesState =
  | { status: 'loading'; titles: SavedTitle[] }
  | { status: 'ready'; titles: SavedTitle[] }
  | { status: 'unavailable'; titles: SavedTitle[] };

export interface SavedTitlesResult {
  state: SavedTitlesState;
  /** Takes a title off the list; rejects if the store fails (the list stays as it is). */
  remove(type: MediaType, id: number): Promise<void>;
}

/** The member's list for /my-list: newest first, updated live when any view in this tab changes it. */
export function useSavedTitles(): SavedTitlesResult {
  const uid = useMemberUid();
  const [state, setState] = useState<SavedTitlesState>({ status: 'loading', titles: [] });

  useEffect(() => {
    let current = true;
    const load = async () => {
      if (!uid) return setState({ status: 'unavailable', titles: [] });
      try {
        const titles = await listSaved(uid);
        if (current) setState({ status: 'ready', titles });
      } catch (failed) {
        if (!current) return;
        console.warn('Netnet: My list cannot be read', failed);
        setState({ status: 'unavailable', titles: [] });
      }
    };
    void load();
    const stop = onStoreChange((change) => {
      if (change.store === 'titles' && change.uid === uid) void load();
    });
    return () => {
      current = false;
      stop();
    };
  }, [uid]);

  const removeTitle = useCallback(
    async (type: MediaType, id: number) => {
      if (!uid) throw new Error(LIST_UNAVAILABLE);
      await remove(uid, type, id);
    },
    [uid],
  );

  return { state, remove: removeTitle };
}
