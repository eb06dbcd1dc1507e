// A tiny in-page event emitter: every view of the same record (the title page, a browse hero,
// /my-list) hears about a change made by another, whichever remote made it — `shared` is a
// singleton, so this module exists once per page.

export type StoreName = 'titles' | 'rated';

export interface StoreChange {
  store: StoreName;
  uid: string;
}

type Listener = (change: StoreChange) => void;

const listeners = new Set<Listener>();

export function onStoreChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function emitStoreChange(change: StoreChange): void {
  for (const listener of [...listeners]) listener(change);
}
