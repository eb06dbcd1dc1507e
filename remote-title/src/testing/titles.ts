// Catalogue bodies for page tests, in the TMDB v3 shapes.
import { page } from '@netnet/shared/testing';

const summary = (id: number, name: string, type: 'movie' | 'tv') => ({
  id,
  ...(type === 'movie' ? { title: name } : { name }),
  media_type: type,
  poster_path: `/p${id}.svg`,
  backdrop_path: `/b${id}.svg`,
  genre_ids: [18],
  overview: '',
  vote_average: 7,
});

export const matrix = {
  id: 604,
  title: 'The Matrix Reloaded',
  overview: 'Neo and the rebels fight on.',
  poster_path: '/p604.svg',
  backdrop_path: '/b604.svg',
  genres: [
    { id: 28, name: 'Action' },
    { id: 878, name: 'Science Fiction' },
  ],
  vote_average: 7.04,
  release_date: '2003-05-15',
  runtime: 138,
  certification: 'R',
};

export const matrixCredits = {
  id: 604,
  cast: ['Keanu', 'Carrie-Anne', 'Laurence', 'Hugo', 'Jada', 'Gloria', 'Monica', 'Harold'].map((name, i) => ({ id: i, name })),
  crew: [
    { id: 20, name: 'Joel Silver', job: 'Producer' },
    { id: 21, name: 'Lana Wachowski', job: 'Director' },
    { id: 22, name: 'Lilly Wachowski', job: 'Director' },
    { id: 23, name: 'Bill Pope', job: 'Director of Photography' },
  ],
};

export const darkSeries = {
  id: 70523,
  name: 'Dark',
  overview: 'A missing child sets four families on a hunt.',
  poster_path: '/p70523.svg',
  backdrop_path: null,
  genres: [{ id: 9648, name: 'Mystery' }],
  vote_average: 8.4,
  first_air_date: '2017-12-01',
  episode_run_time: [53],
  number_of_seasons: 3,
  certification: 'TV-MA',
};

export const similarMovies = page(Array.from({ length: 15 }, (_, i) => summary(1000 + i, `Similar ${i + 1}`, 'movie')));
export const similarSeries = page([summary(71, 'Another Series', 'tv')]);
export const popularMovies = page([summary(604, 'The Matrix Reloaded', 'movie'), summary(605, 'Popular Movie', 'movie')]);
export const popularSeries = page([summary(72, 'Popular Series', 'tv')]);
export const clip = {
  id: 604,
  results: [{ id: 'c', key: 'demo-clip', name: 'Trailer', site: 'Netnet', type: 'Trailer', url: 'http://catalogue.test/media/demo-clip.mp4' }],
};
export const noVideos = { id: 604, results: [] };
