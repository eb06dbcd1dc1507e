import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { isSaved, usePageNotice } from '@netnet/shared';
import { fakeCatalogue, freshIndexedDB, notFound } from '@netnet/shared/testing';
import { isRated } from '../rating/ratings';
import { renderTitleRoute } from '../testing/renderTitle';
import { prefetch as prefetchMovie } from './MovieDetail';
import {
  clip,
  darkSeries,
  matrix,
  matrixCredits,
  noVideos,
  popularMovies,
  popularSeries,
  similarMovies,
  similarSeries,
} from '../testing/titles';

const movieCatalogue = {
  'movie/604': matrix,
  'movie/604/credits': matrixCredits,
  'movie/604/videos': noVideos,
  'movie/604/recommendations': similarMovies,
  'movie/popular': popularMovies,
};

beforeEach(async () => {
  await freshIndexedDB();
  jest.spyOn(window, 'scrollTo').mockImplementation(() => {});
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
});

describe('redirects', () => {
  // The notice is the frame's (the shell shows it across the navigation): read here from shared.
  const NoticeShown = () => <output aria-label="Page notice">{usePageNotice()}</output>;

  it.each(['/title/abc', '/title/0', '/title/12abc', '/tv/-5'])('sends %s to /browse, saying the title could not be found, fetching nothing', async (path) => {
    const { fetchMock } = fakeCatalogue(movieCatalogue);
    renderTitleRoute(path, undefined, <NoticeShown />);
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Page notice' })).toHaveTextContent('We couldn’t find that title. Here’s what’s on instead.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends an unknown title to /browse, saying it could not be found', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    fakeCatalogue({ 'movie/999': notFound });
    renderTitleRoute('/title/999', undefined, <NoticeShown />);
    expect(screen.getByRole('heading', { level: 1, name: 'Loading title' })).toBeInTheDocument();
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Page notice' })).toHaveTextContent('We couldn’t find that title.');
  });

  it('sends a series whose details fail to /browse, saying it could not be loaded', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    fakeCatalogue({ 'tv/5': { status: 500, body: {} } });
    renderTitleRoute('/tv/5', undefined, <NoticeShown />);
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Page notice' })).toHaveTextContent('That title couldn’t be loaded right now.');
  });
});

describe('a movie page', () => {
  it('shows the details block', async () => {
    fakeCatalogue(movieCatalogue);
    renderTitleRoute('/title/604');
    expect(await screen.findByRole('heading', { level: 1, name: 'The Matrix Reloaded' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText('70% match')).toBeInTheDocument();
    expect(screen.getByText('2003')).toBeInTheDocument();
    expect(screen.getByText('R')).toBeInTheDocument();
    expect(screen.getByText('2h 18m')).toBeInTheDocument();
    expect(screen.getByText('HD')).toBeInTheDocument();
    expect(screen.getByText('Action • Science Fiction')).toBeInTheDocument();
    expect(screen.getByText('Neo and the rebels fight on.')).toBeInTheDocument();
  });

  it('lists cast and directors, 4 names then 7', async () => {
    fakeCatalogue(movieCatalogue);
    renderTitleRoute('/title/604');
    expect(await screen.findByText('Keanu, Carrie-Anne, Laurence, Hugo…')).toBeInTheDocument();
    expect(screen.getByText('Lana Wachowski, Lilly Wachowski')).toBeInTheDocument();
    expect(screen.getByText('Directors:')).toBeInTheDocument();
    expect(screen.queryByText(/Joel Silver|Bill Pope/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'more cast' }));
    expect(screen.getByText('Keanu, Carrie-Anne, Laurence, Hugo, Jada, Gloria, Monica…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'less cast' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('shows nothing for credits that fail', async () => {
    fakeCatalogue({ ...movieCatalogue, 'movie/604/credits': { status: 500, body: {} } });
    renderTitleRoute('/title/604');
    await screen.findByRole('heading', { level: 1, name: 'The Matrix Reloaded' });
    await waitFor(() => expect(screen.getByRole('link', { name: 'Similar 1' })).toBeInTheDocument());
    expect(screen.queryByText(/Cast:|Director/)).not.toBeInTheDocument();
  });

  it('shows the first 12 recommendations and popular movies, linking to movie pages', async () => {
    fakeCatalogue(movieCatalogue);
    renderTitleRoute('/title/604');
    const similar = await screen.findByRole('region', { name: 'More like this' });
    await waitFor(() => expect(within(similar).getAllByRole('link')).toHaveLength(12));
    expect(within(similar).getByRole('link', { name: 'Similar 1' })).toHaveAttribute('href', '/title/1000');
    expect(within(similar).queryByRole('link', { name: 'Similar 13' })).not.toBeInTheDocument();

    const popular = screen.getByRole('region', { name: 'Popular movies' });
    expect(await within(popular).findByRole('link', { name: 'Popular Movie' })).toHaveAttribute('href', '/title/605');
    expect(within(popular).queryByRole('link', { name: 'The Matrix Reloaded' })).not.toBeInTheDocument();
  });

  it('says something went wrong when More like this fails, and retries', async () => {
    fakeCatalogue({ ...movieCatalogue, 'movie/604/recommendations': { status: 503, body: {} } });
    renderTitleRoute('/title/604');
    const similar = await screen.findByRole('region', { name: 'More like this' });
    expect(await within(similar).findByText('Something went wrong')).toBeInTheDocument();

    fakeCatalogue(movieCatalogue);
    await userEvent.click(within(similar).getByRole('button', { name: 'Retry' }));
    expect(await within(similar).findByRole('link', { name: 'Similar 1' })).toBeInTheDocument();
  });

  it('shows the poster when there is no trailer, and says so on Play; Download explains itself', async () => {
    fakeCatalogue(movieCatalogue);
    renderTitleRoute('/title/604');
    const poster = await screen.findByRole('img', { name: 'The Matrix Reloaded poster' });
    expect(poster).toHaveAttribute('src', 'http://catalogue.test/t/p/w780/b604.svg');
    await waitFor(() => expect(screen.queryByRole('button', { name: /trailer/ })).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(screen.getByText('There’s no trailer for The Matrix Reloaded to play.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(screen.getByText('Downloads aren’t available on the web. Watch online instead.')).toBeInTheDocument();
  });

  it('arriving from a hero with ?play=1 plays like the Play button', async () => {
    fakeCatalogue(movieCatalogue);
    renderTitleRoute('/title/604?play=1');
    expect(await screen.findByText('There’s no trailer for The Matrix Reloaded to play.')).toBeInTheDocument();
  });

  it('plays the self-hosted clip, and Play restarts it', async () => {
    fakeCatalogue({ ...movieCatalogue, 'movie/604/videos': clip });
    renderTitleRoute('/title/604');
    await screen.findByRole('heading', { level: 1, name: 'The Matrix Reloaded' });
    await waitFor(() => expect(document.querySelector('video')).not.toBeNull());
    const video = document.querySelector('video')!;
    expect(video).toHaveAttribute('src', clip.results[0]!.url);
    fireEvent.loadedData(video);
    await userEvent.click(await screen.findByRole('button', { name: 'Pause trailer' }));
    expect(screen.getByRole('button', { name: 'Play trailer' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(screen.getByRole('button', { name: 'Pause trailer' })).toBeInTheDocument();
    expect(video.currentTime).toBe(0);
  });

  it('keeps My list and Rate per member and media type', async () => {
    fakeCatalogue(movieCatalogue);
    renderTitleRoute('/title/604', 'ann');
    const myList = await screen.findByRole('button', { name: 'My list' });
    await waitFor(() => expect(myList).toHaveAttribute('aria-disabled', 'false'));
    await userEvent.click(myList);
    const rate = screen.getByRole('button', { name: 'Rate' });
    await waitFor(() => expect(rate).toHaveAttribute('aria-disabled', 'false'));
    await userEvent.click(rate);
    expect(rate).toHaveAttribute('aria-pressed', 'true');

    await waitFor(async () => expect(await isSaved('ann', 'movie', 604)).toBe(true));
    await waitFor(async () => expect(await isRated('ann', 'movie', 604)).toBe(true));
    expect(await isSaved('ann', 'tv', 604)).toBe(false);
    expect(await isRated('bob', 'movie', 604)).toBe(false);
  });
});

it('still works, and says so, when this browser cannot keep My list or ratings', async () => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  Object.defineProperty(globalThis, 'indexedDB', { value: undefined, configurable: true, writable: true });
  fakeCatalogue(movieCatalogue);
  renderTitleRoute('/title/604');
  expect(await screen.findByRole('heading', { level: 1, name: 'The Matrix Reloaded' })).toBeInTheDocument();
  const myList = screen.getByRole('button', { name: 'My list' });
  await waitFor(() => expect(myList).toHaveAccessibleDescription('My list can’t be saved on this browser.'));
  expect(screen.getByRole('button', { name: 'Rate' })).toHaveAccessibleDescription('Ratings can’t be saved on this browser.');
  await userEvent.click(screen.getByRole('button', { name: 'Rate' }));
  expect(screen.getByText('Ratings can’t be saved on this browser.', { selector: '[role="status"]' })).toBeInTheDocument();
  expect(await screen.findByRole('link', { name: 'Similar 1' })).toBeInTheDocument();
});

describe('a series page', () => {
  const seriesCatalogue = {
    'tv/70523': darkSeries,
    'tv/70523/credits': { id: 70523, cast: [{ id: 1, name: 'Louis' }], crew: [] },
    'tv/70523/videos': { status: 500, body: {} },
    'tv/70523/similar': similarSeries,
    'tv/popular': popularSeries,
  };

  it('uses the series’ own fields and links to series pages', async () => {
    fakeCatalogue(seriesCatalogue);
    renderTitleRoute('/tv/70523');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dark' })).toBeInTheDocument();
    expect(screen.getByText('84% match')).toBeInTheDocument();
    expect(screen.getByText('2017')).toBeInTheDocument();
    expect(screen.getByText('TV-MA')).toBeInTheDocument();
    expect(screen.getByText('53m')).toBeInTheDocument();
    expect(screen.getByText('3 Seasons')).toBeInTheDocument();
    // The videos call failed: the poster stands in (the series has no backdrop).
    expect(screen.getByRole('img', { name: 'Dark poster' })).toHaveAttribute('src', 'http://catalogue.test/t/p/w500/p70523.svg');
    expect(await screen.findByRole('link', { name: 'Another Series' })).toHaveAttribute('href', '/tv/71');
    expect(await screen.findByRole('link', { name: 'Popular Series' })).toHaveAttribute('href', '/tv/72');
    expect(screen.getByRole('region', { name: 'Popular series' })).toBeInTheDocument();
  });
});

describe('prefetch (the shell calls it when a member points at a title link)', () => {
  it('warms the details, so the page opens on the title instead of a skeleton', async () => {
    const { fetchMock } = fakeCatalogue(movieCatalogue);
    prefetchMovie({ id: '604' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith(expect.stringContaining('/3/movie/604?'), expect.anything()));
    await new Promise((resolve) => setTimeout(resolve, 0));
    renderTitleRoute('/title/604');
    expect(screen.getByRole('heading', { level: 1, name: 'The Matrix Reloaded' })).toBeInTheDocument();
  });

  it('fetches nothing for an id that is not one', () => {
    const { fetchMock } = fakeCatalogue(movieCatalogue);
    prefetchMovie({ id: '12abc' });
    prefetchMovie({});
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
