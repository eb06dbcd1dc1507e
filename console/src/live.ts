// Live: the API streams every change of the environment's map (and every release published) as a
// server-sent event (control-plane/src/api/console/events.ts); each one makes the open view read
// its data again. Charts are read again every few seconds besides. A console that loses the API
// says so and keeps trying: the browser's EventSource reconnects by itself, and every successful
// read clears the warning.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiFailure, get } from './api';
import { markArrived } from './timing';

/** How often a view's figures are read again without a change. */
export const REFRESH_MS = 5_000;

export type Connection = 'connecting' | 'live' | 'lost';

/**
 * Streams `environment`'s changes; `changed` counts them (a dependency to read again on).
 * `readOnOpen`: the view's figures came with the page, read before the stream opened, so the first
 * open reads again too (whatever changed in between was never announced).
 */
export function useLive(environment: string, { readOnOpen = false }: { readOnOpen?: boolean } = {}) {
  const [changed, setChanged] = useState(0);
  const [connection, setConnection] = useState<Connection>('connecting');
  useEffect(() => {
    const source = new EventSource(`/console/api/environments/${encodeURIComponent(environment)}/events`);
    const bump = () => setChanged((count) => count + 1);
    source.addEventListener('rollout', bump);
    source.addEventListener('release', bump);
    source.addEventListener('store', (event) => {
      const { listening } = JSON.parse((event as MessageEvent<string>).data) as { listening: boolean };
      // Listening again after a gap: whatever changed meanwhile was never announced.
      if (listening) bump();
    });
    let opened = false;
    source.addEventListener('open', () => {
      setConnection('live');
      // Open again after a break: read what changed meanwhile (the first open follows the first read, unless the page brought it).
      if (opened || readOnOpen) bump();
      opened = true;
    });
    source.addEventListener('error', () => setConnection('lost'));
    return () => source.close();
  }, [environment, readOnOpen]);
  return { changed, connection };
}

export interface Resource<T> {
  data: T | null;
  error: ApiFailure | null;
  reload(): Promise<T | null>;
}

interface Read<T> {
  path: string;
  data: T | null;
  error: ApiFailure | null;
}

/**
 * Answers no retry changes: no session (401), outside the token's scope (403), no such view (404).
 * A read answered so is not made again by the clock, only by a change or reload().
 */
export const isFinal = (error: ApiFailure | null) => error !== null && [401, 403, 404].includes(error.status);

/**
 * Reads `path` now (unless `initial` brought its data with the page), whenever `changed` moves,
 * every `everyMs` (until an answer isFinal) and on reload(); keeps the last good answer while a
 * read fails. Marks each answer's arrival for the charts' timing (./timing.ts).
 */
export function useResource<T>(path: string, changed: number, { everyMs = REFRESH_MS, initial = null }: { everyMs?: number; initial?: { path: string; data: T } | null } = {}): Resource<T> {
  const [read, setRead] = useState<Read<T>>(() => ({ path, data: initial?.path === path ? initial.data : null, error: null }));
  // Another path shows nothing of the last one's until its own answer comes.
  const shown = read.path === path ? read : { path, data: null, error: null };
  const latest = useRef(path);
  useEffect(() => {
    latest.current = path;
  }, [path]);
  const reload = useCallback(async () => {
    try {
      const value = await get<T>(path);
      if (latest.current === path) {
        markArrived();
        setRead({ path, data: value, error: null });
      }
      return value;
    } catch (caught) {
      const error = caught instanceof ApiFailure ? caught : new ApiFailure(0, String(caught));
      if (latest.current === path) setRead((last) => ({ path, data: last.path === path ? last.data : null, error }));
      return null;
    }
  }, [path]);
  const preloaded = useRef(initial?.path === path);
  useEffect(() => {
    // The page brought this read: the next one waits for a change (or the stream's first open).
    if (preloaded.current) {
      preloaded.current = false;
      return;
    }
    void reload();
  }, [reload, changed]);
  const final = isFinal(shown.error);
  useEffect(() => {
    if (final) return;
    const timer = setInterval(() => void reload(), everyMs);
    return () => clearInterval(timer);
  }, [reload, everyMs, final]);
  return { data: shown.data, error: shown.error, reload };
}
