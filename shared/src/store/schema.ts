import type { DBSchema, IDBPDatabase } from 'idb';
import type { MediaType } from '../types';

// The local database's shape (db.ts describes it); its own file so the code that opens the
// database (openDatabase.ts, loaded with the first call) and db.ts share it.

export const DB_NAME = 'netnet';
export const DB_VERSION = 1;

export type TitleKey = [uid: string, type: MediaType, id: number];

export interface StoredTitle {
  uid: string;
  type: MediaType;
  id: number;
  name: string;
  poster: string | null;
  addedAt: number;
}

export interface StoredRating {
  uid: string;
  type: MediaType;
  id: number;
}

export interface NetnetSchema extends DBSchema {
  titles: { key: TitleKey; value: StoredTitle; indexes: { uid: string } };
  rated: { key: TitleKey; value: StoredRating; indexes: { uid: string } };
}

export type NetnetDatabase = IDBPDatabase<NetnetSchema>;
