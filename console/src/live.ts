// Live: the API streams every change of the environment's map (and every release published) as a
// server-sent event (control-plane/src/api/console/events.ts); each one makes the open view read
// its data again. Charts are read again every few seconds besides. A console that loses the API
// says so and keeps trying: the browser's EventSource reconnects by itself, and every successful
// read clears the warning.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiFailure, get } from './api';

/** How often a view's figures are read again without a change. */
export const REFRESH_MS = 5_000;

export type Connection = 'connecting' | 'live' | 'lost';

/** Streams `environment`'s changes; `changed` counts them (a dependency to read again on). */
export function useLive(environment: string) {
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
      // Open again after a break: read what changed meanwhile (the first open follows the first read).
      if (opened) bump();
      opened = true;
    });
    source.addEventListener('error', () => setConnection('lost'));
    return () => source.close();
  }, [environment]);
  return { changed, connection };
}

export interface Resource<T> {
  data: T | null;
  error: ApiFailure | null;
  reload(): Promise<T | null>;
}

/** Reads `path` now, whenever `changed` moves, every `everyMs` and on reload(); keeps the last good answer while a read fails. */
export function useResource<T>(path: string, changed: number, everyMs = REFRESH_MS): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  const latest = useRef(path);
  useEffect(() => {
    latest.current = path;
  }, [path]);
  const reload = useCallback(async () => {
    try {
      const value = await get<T>(path);
      if (latest.current === path) {
        setData(value);
        setError(null);
      }
      return value;
    } catch (caught) {
      if (latest.current === path) setError(caught instanceof ApiFailure ? caught : new ApiFailure(0, String(caught)));
      return null;
    }
  }, [path]);
  useEffect(() => {
    setData(null);
    setError(null);
  }, [path]);
  useEffect(() => {
    void reload();
  }, [reload, changed]);
  useEffect(() => {
    const timer = setInterval(() => void reload(), everyMs);
    return () => clearInterval(timer);
  }, [reload, everyMs]);
  return { data, error, reload };
}
