import { summary } from '@netnet/shared/testing';
import { searchHits } from './results';

describe('searchHits', () => {
  it('keeps movies and series, named by title or name', () => {
    const hits = searchHits([
      summary({ id: 10, media_type: 'movie', title: 'The Silent Harbor', backdrop_path: '/harbor.svg', release_date: '2019-05-01' }),
      summary({ id: 20, media_type: 'tv', name: 'Night Shift', backdrop_path: '/night.svg', first_air_date: '2021-01-09' }),
      summary({ id: 30, media_type: 'movie', title: 'Undated', backdrop_path: '/undated.svg', release_date: '' }),
    ]);
    expect(hits).toEqual([
      { id: 10, type: 'movie', name: 'The Silent Harbor', backdrop: '/harbor.svg', year: '2019' },
      { id: 20, type: 'tv', name: 'Night Shift', backdrop: '/night.svg', year: '2021' },
      { id: 30, type: 'movie', name: 'Undated', backdrop: '/undated.svg' },
    ]);
  });

  it('drops titles without a backdrop', () => {
    const hits = searchHits([
      summary({ id: 1, media_type: 'movie', title: 'No backdrop', backdrop_path: null }),
      summary({ id: 2, media_type: 'tv', name: 'Empty backdrop', backdrop_path: '' }),
      summary({ id: 3, media_type: 'movie', title: 'Has one' }),
    ]);
    expect(hits.map((hit) => hit.name)).toEqual(['Has one']);
  });

  it('drops people and results that do not say their type', () => {
    const hits = searchHits([
      summary({ id: 1, media_type: 'person', name: 'An Actor' }),
      summary({ id: 2, title: 'Untyped' }),
      summary({ id: 3, media_type: 'tv', name: 'A Series' }),
    ]);
    expect(hits.map((hit) => hit.name)).toEqual(['A Series']);
  });

  it('keeps a movie and a series with the same id, but not the same title twice', () => {
    const hits = searchHits([
      summary({ id: 7, media_type: 'movie', title: 'Seven' }),
      summary({ id: 7, media_type: 'tv', name: 'Seven Days' }),
      summary({ id: 7, media_type: 'movie', title: 'Seven' }),
    ]);
    expect(hits.map((hit) => `${hit.type}/${hit.id}`)).toEqual(['movie/7', 'tv/7']);
  });
});
