import { database } from '@netnet/shared';
import { freshIndexedDB } from '@netnet/shared/testing';
import { isRated, setRated } from './ratings';

beforeEach(freshIndexedDB);

describe('ratings', () => {
  it('rates and unrates per member and per media type', async () => {
    await setRated('ann', 'movie', 7, true);
    expect(await isRated('ann', 'movie', 7)).toBe(true);
    expect(await isRated('ann', 'tv', 7)).toBe(false);
    expect(await isRated('bob', 'movie', 7)).toBe(false);
    await setRated('ann', 'movie', 7, false);
    expect(await isRated('ann', 'movie', 7)).toBe(false);
  });

  it('ignores a malformed rating record', async () => {
    // Written as another program (or a corrupted profile) might have left them.
    const db = (await database()) as unknown as { put(store: string, value: unknown): Promise<unknown> };
    await db.put('rated', { uid: 'ann', type: 'movie', id: -3 });
    await db.put('rated', { uid: 'ann', type: 'tv', id: 4, extra: true });
    expect(await isRated('ann', 'movie', -3)).toBe(false);
    expect(await isRated('ann', 'tv', 4)).toBe(true);
  });
});
