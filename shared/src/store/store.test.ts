import { IDBFactory } from 'fake-indexeddb';
import { StoreUnavailableError, database } from './db';
import { isSaved, listSaved, remove, save } from './titles';
import { onStoreChange } from './changes';
import { busyIndexedDB, freshIndexedDB, withoutIndexedDB } from '@netnet/shared/testing';

const dune = { id: 7, type: 'movie' as const, name: 'Dune', poster: '/dune.jpg' };
const dark = { id: 7, type: 'tv' as const, name: 'Dark', poster: null };

beforeEach(freshIndexedDB);

/** Writes a record as some other code (or a corrupted profile) might have left it. */
async function putRaw(store: 'titles' | 'rated', record: unknown): Promise<void> {
  const db = await database();
  await (db as unknown as { put(store: string, value: unknown): Promise<unknown> }).put(store, record);
}

describe('My list records', () => {
  it('saves, reads and removes a title for one member', async () => {
    expect(await isSaved('ann', 'movie', 7)).toBe(false);
    await save('ann', dune, 1000);
    expect(await isSaved('ann', 'movie', 7)).toBe(true);
    expect(await listSaved('ann')).toEqual([{ id: 7, type: 'movie', name: 'Dune', poster: '/dune.jpg', addedAt: 1000 }]);
    await remove('ann', 'movie', 7);
    expect(await isSaved('ann', 'movie', 7)).toBe(false);
    expect(await listSaved('ann')).toEqual([]);
  });

  it('keeps a movie and a series with the same id apart', async () => {
    await save('ann', dune, 1000);
    expect(await isSaved('ann', 'tv', 7)).toBe(false);
    await save('ann', dark, 2000);
    await remove('ann', 'movie', 7);
    expect(await listSaved('ann')).toEqual([{ ...dark, addedAt: 2000 }]);
  });

  it('keeps one member’s list from another', async () => {
    await save('ann', dune, 1000);
    expect(await isSaved('bob', 'movie', 7)).toBe(false);
    expect(await listSaved('bob')).toEqual([]);
    await remove('bob', 'movie', 7);
    expect(await isSaved('ann', 'movie', 7)).toBe(true);
  });

  it('lists newest first', async () => {
    await save('ann', { ...dune, id: 1, name: 'Old' }, 1000);
    await save('ann', { ...dune, id: 2, name: 'New' }, 3000);
    await save('ann', { ...dune, id: 3, name: 'Middle' }, 2000);
    expect((await listSaved('ann')).map((t) => t.name)).toEqual(['New', 'Middle', 'Old']);
  });

  it('skips corrupted records instead of failing', async () => {
    await save('ann', dune, 1000);
    await putRaw('titles', { uid: 'ann', type: 'movie', id: 8, name: 42, poster: null, addedAt: 5 });
    await putRaw('titles', { uid: 'ann', type: 'film', id: 9, name: 'Bad type', poster: null, addedAt: 5 });
    await putRaw('titles', { uid: 'ann', type: 'tv', id: 10, name: 'No date', poster: null });
    expect((await listSaved('ann')).map((t) => t.name)).toEqual(['Dune']);
    expect(await isSaved('ann', 'movie', 8)).toBe(false);
  });

  it('tells the other views of the list about a change', async () => {
    const heard = jest.fn();
    const stop = onStoreChange(heard);
    await save('ann', dune);
    await remove('ann', 'movie', 7);
    stop();
    await save('ann', dune);
    expect(heard.mock.calls).toEqual([[{ store: 'titles', uid: 'ann' }], [{ store: 'titles', uid: 'ann' }]]);
  });
});

describe('the database itself', () => {
  it('is netnet version 1 with the titles and rated stores', async () => {
    const db = await database();
    expect(db.name).toBe('netnet');
    expect(db.version).toBe(1);
    expect([...db.objectStoreNames].sort()).toEqual(['rated', 'titles']);
  });

  it('reports a browser without IndexedDB as unavailable', async () => {
    await withoutIndexedDB();
    await expect(listSaved('ann')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(save('ann', dune)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('reports an indexedDB.open that throws (private mode) as unavailable', async () => {
    await withoutIndexedDB({
      open() {
        throw new DOMException('The user denied permission to access the database.', 'SecurityError');
      },
    });
    await expect(isSaved('ann', 'movie', 7)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('reports an open request that fails as unavailable', async () => {
    // A newer database of the same name makes opening version 1 fail with a VersionError.
    const factory = new IDBFactory();
    await new Promise<void>((resolve) => {
      const request = factory.open('netnet', 5);
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
    });
    await withoutIndexedDB(factory);
    await expect(isSaved('ann', 'movie', 7)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('gives up on an open that never answers', async () => {
    jest.useFakeTimers();
    try {
      await withoutIndexedDB({ open: () => ({}) });
      const listing = listSaved('ann');
      const settled = expect(listing).rejects.toBeInstanceOf(StoreUnavailableError);
      await jest.advanceTimersByTimeAsync(5000);
      await settled;
    } finally {
      jest.useRealTimers();
    }
  });

  it('tries again after a failed open: a browser busy once may answer the next call', async () => {
    const browser = await busyIndexedDB();
    await expect(listSaved('ann')).rejects.toBeInstanceOf(StoreUnavailableError);
    browser.answer();
    await save('ann', dune);
    expect((await listSaved('ann')).map((title) => title.name)).toEqual(['Dune']);
  });
});
