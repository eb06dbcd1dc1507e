import { screen, within } from '@testing-library/react';
import type { MediaType } from '@netnet/shared';
import { Hero } from './Hero';
import { fakeCatalogue, newMemberId, page, renderPage } from '@netnet/shared/testing';

const movieGenres = { genres: [{ id: 28, name: 'Action' }, { id: 35, name: 'Comedy' }, { id: 18, name: 'Drama' }] };
// Series genres have their own names (and ids) in TMDB.
const tvGenres = { genres: [{ id: 10759, name: 'Action & Adventure' }, { id: 35, name: 'Sitcom' }, { id: 18, name: 'Drama' }] };

const renderHero = (type: MediaType) => renderPage(<Hero type={type} />, { auth: newMemberId() });

describe('Hero', () => {
  it('holds its place with a placeholder while the featured title loads', () => {
    fakeCatalogue({ 'movie/popular': 'pending', 'genre/movie/list': movieGenres });
    renderHero('movie');
    expect(screen.getByTestId('hero-placeholder')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the featured movie');
    expect(screen.queryByRole('link', { name: 'Info' })).not.toBeInTheDocument();
  });

  it('shows a placeholder with a way to try again when the featured title fails', async () => {
    const answers: Record<string, unknown> = { 'movie/popular': { status: 503 }, 'genre/movie/list': movieGenres };
    fakeCatalogue(answers);
    const { user } = renderHero('movie');

    expect(await screen.findByText('The featured movie could not be loaded.')).toBeInTheDocument();
    expect(screen.getByTestId('hero-placeholder')).toBeInTheDocument();

    answers['movie/popular'] = page([{ id: 5, title: 'Second Try', genre_ids: [28] }]);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Second Try' })).toBeInTheDocument();
  });

  it('features the most popular movie: name, genres joined by a bullet, My list, Play and Info', async () => {
    fakeCatalogue({
      'movie/popular': page([
        { id: 42, title: 'Top Movie', genre_ids: [28, 35, 999], backdrop_path: '/top.jpg', poster_path: '/top-poster.jpg' },
        { id: 43, title: 'Runner Up' },
      ]),
      'genre/movie/list': movieGenres,
    });
    renderHero('movie');

    const hero = await screen.findByRole('region', { name: 'Featured movie' });
    expect(within(hero).getByRole('heading', { level: 2, name: 'Top Movie' })).toBeInTheDocument();
    expect(await within(hero).findByText('Action • Comedy')).toBeInTheDocument();
    expect(within(hero).getByRole('button', { name: 'My list' })).toBeInTheDocument();
    expect(within(hero).getByRole('link', { name: 'Play' })).toHaveAttribute('href', '/title/42?play=1');
    expect(within(hero).getByRole('link', { name: 'Info' })).toHaveAttribute('href', '/title/42');
    expect(screen.queryByText('Runner Up')).not.toBeInTheDocument();
  });

  it('requests the backdrop at a size that fits the screen, not the original', async () => {
    fakeCatalogue({ 'movie/popular': page([{ id: 1, title: 'Wide', backdrop_path: '/wide.jpg' }]), 'genre/movie/list': movieGenres });
    const { container } = renderHero('movie');
    await screen.findByRole('heading', { name: 'Wide' });
    // The backdrop is decorative (alt=""), so it is found by its tag.
    const backdrop = container.querySelector('img[alt=""]');
    expect(backdrop?.getAttribute('srcset')).toMatch(/\/t\/p\/w780\/wide\.jpg 780w, .*\/t\/p\/w1280\/wide\.jpg 1280w/);
    expect(backdrop?.getAttribute('src')).not.toMatch(/original/);
  });

  it('names a series’ genres from the series genre list and sends Info and Play to /tv/{id}', async () => {
    fakeCatalogue({
      'tv/popular': page([{ id: 77, name: 'Top Series', genre_ids: [35, 18] }]),
      'genre/tv/list': tvGenres,
      'genre/movie/list': movieGenres,
    });
    renderHero('tv');

    const hero = await screen.findByRole('region', { name: 'Featured series' });
    expect(await within(hero).findByText('Sitcom • Drama')).toBeInTheDocument();
    expect(within(hero).getByRole('link', { name: 'Info' })).toHaveAttribute('href', '/tv/77');
    expect(within(hero).getByRole('link', { name: 'Play' })).toHaveAttribute('href', '/tv/77?play=1');
  });

  it('shows no genre names while the genre list is still loading', async () => {
    fakeCatalogue({ 'movie/popular': page([{ id: 8, title: 'Genre Wait', genre_ids: [28] }]), 'genre/movie/list': 'pending' });
    renderHero('movie');
    await screen.findByRole('heading', { name: 'Genre Wait' });
    expect(screen.queryByText(/Action/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Info' })).toBeInTheDocument();
  });
});
