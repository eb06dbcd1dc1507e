import type { MediaType, SavedTitle } from '../types';
import { database, isStoredTitle, type StoredTitle } from './db';
import { emitStoreChange } from './changes';

/** What a My list control knows about a title. */
export interface TitleRef {
  id: number;
  type: MediaType;
  name: string;
  poster: string | null;
}

const toSaved = ({ id, type, name, poster, addedAt }: StoredTitle): SavedTitle => ({ id, type, name, poster, addedAt });

/** One member's list, newest first; malformed records are skipped. */
export async function listSaved(uid: string): Promise<SavedTitle[]> {
  const db = await database();
  const records: unknown[] = await db.getAllFromIndex('titles', 'uid', uid);
  return records
    .filter(isStoredTitle)
    .map(toSaved)
    .sort((a, b) => b.addedAt - a.addedAt);
}

export async function isSaved(uid: string, type: MediaType, id: number): Promise<boolean> {
  const db = await database();
  return isStoredTitle(await db.get('titles', [uid, type, id]));
}

export async function save(uid: string, title: TitleRef, now = Date.now()): Promise<void> {
  const db = await database();
  await db.put('titles', { uid, type: title.type, id: title.id, name: title.name, poster: title.poster, addedAt: now });
  emitStoreChange({ store: 'titles', uid });
}

export async function remove(uid: string, type: MediaType, id: number): Promise<void> {
  const db = await database();
  await db.delete('titles', [uid, type, id]);
  emitStoreChange({ store: 'titles', uid });
}
