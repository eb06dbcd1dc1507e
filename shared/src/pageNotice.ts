import { useSyncExternalStore } from 'react';
import { NOTICE_MS } from './store/useStoredFlag';

// A notice that outlives the page that gave it: a title that does not exist leaves for /browse and
// says so there (docs/product.md#guards-and-redirects). The shell's frame shows it for NOTICE_MS.

let message: string | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Shows `text` in the frame's notice for a few seconds, across the navigation that follows. */
export function showPageNotice(text: string): void {
  message = text;
  clearTimeout(timer);
  timer = setTimeout(() => {
    message = null;
    changed();
  }, NOTICE_MS);
  changed();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The notice to show now, or null. */
export const usePageNotice = (): string | null =>
  useSyncExternalStore(
    subscribe,
    () => message,
    () => null,
  );
