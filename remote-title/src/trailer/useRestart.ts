import { useEffect, useRef } from 'react';

/** Runs `restart` each time the restart counter moves on — not on mount, and not on a plain resume. */
export function useRestart(restarts: number, restart: () => void): void {
  const seen = useRef(restarts);
  const latest = useRef(restart);
  useEffect(() => {
    latest.current = restart;
  });
  useEffect(() => {
    if (restarts === seen.current) return;
    seen.current = restarts;
    latest.current();
  }, [restarts]);
}
