import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { authAtom } from '../auth';
import { onStoreChange, type StoreName } from './changes';

/** checking: reading the store · ready: the flag is known · unavailable: no store in this browser. */
export type FlagStatus = 'checking' | 'ready' | 'unavailable';

export interface StoredFlag {
  on: boolean;
  status: FlagStatus;
  /** A write is in flight; further toggles wait for it. */
  busy: boolean;
  /** A brief, readable notice after a failed write, or a toggle that cannot work here (cleared after a few seconds). */
  error: string | null;
  /** Why the control cannot work in this browser (null while it can): describe the control with it. */
  note: string | null;
  toggle(): Promise<void>;
}

interface FlagOptions {
  store: StoreName;
  read(uid: string): Promise<boolean>;
  write(uid: string, on: boolean): Promise<void>;
  /** What the member reads when a write fails. */
  failure: string;
  /** What the member reads when the browser has no usable store. */
  unavailable: string;
}

export const NOTICE_MS = 6000;

/** The signed-in member's uid, or null: every record is kept per member. */
export function useMemberUid(): string | null {
  const auth = useAtomValue(authAtom);
  return auth.status === 'authenticated' ? auth.member.uid : null;
}

/**
 * One on/off record of the signed-in member (My list, Rated), kept in step with the store:
 * the toggle shows the new state at once, and returns to the stored truth if the write fails.
 * `read` and `write` must be stable for one record (wrap them in useCallback).
 */
export function useStoredFlag({ store, read, write, failure, unavailable }: FlagOptions): StoredFlag {
  const uid = useMemberUid();
  const [state, setState] = useState<{ on: boolean; status: FlagStatus }>({ on: false, status: 'checking' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const writing = useRef(false);

  const refresh = useCallback(
    async (isCurrent: () => boolean = () => true) => {
      if (!uid) {
        setState({ on: false, status: 'unavailable' });
        return;
      }
      try {
        const on = await read(uid);
        if (isCurrent()) setState({ on, status: 'ready' });
      } catch (failed) {
        if (!isCurrent()) return;
        console.warn(`Netnet: the ${store} store cannot be read`, failed);
        setState({ on: false, status: 'unavailable' });
      }
    },
    [uid, read, store],
  );

  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, status: 'checking' }));
    void refresh(() => current);
    const stop = onStoreChange((change) => {
      // Our own write settles through toggle(); others' writes (another view of this record) re-read.
      if (change.store === store && change.uid === uid && !writing.current) void refresh(() => current);
    });
    return () => {
      current = false;
      stop();
    };
  }, [refresh, store, uid]);

  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => setError(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [error]);

  const toggle = useCallback(async () => {
    if (state.status === 'unavailable') return setError(unavailable);
    if (!uid || writing.current || state.status !== 'ready') return;
    const next = !state.on;
    writing.current = true;
    setBusy(true);
    setError(null);
    setState({ on: next, status: 'ready' });
    try {
      await write(uid, next);
    } catch (failed) {
      console.error(`Netnet: could not update the ${store} store`, failed);
      setError(failure);
      await refresh();
    } finally {
      writing.current = false;
      setBusy(false);
    }
  }, [uid, state, write, store, failure, unavailable, refresh]);

  return { ...state, busy, error, note: state.status === 'unavailable' ? unavailable : null, toggle };
}
