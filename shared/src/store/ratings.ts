import type { MediaType } from '../types';
import { database, isStoredRating } from './db';
import { emitStoreChange } from './changes';

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
