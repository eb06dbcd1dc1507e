import { screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import Browse from './Browse';
import Movies from './Movies';
import Series from './Series';
import Downloads from './Downloads';
import { fakeCatalogue, newMemberId, renderPage } from '@netnet/shared/testing';
import { fakeMediaPlayback } from '../testing/fakeMedia';

function renderScreen(Screen: ComponentType) {
  renderPage(<Screen />, { auth: newMemberId() });
}

const rowHeadings = () => screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);

describe('browse screens', () => {
  beforeEach(() => {
    // Nothing answers: the screens are checked for their structure while loading.
    fakeCatalogue({}, { otherwise: 'pending' });
    fakeMediaPlayback();
  });

  it('/browse: one heading, the billboard with the trailer and its sound toggle, and the five home rows', () => {
    const { requested } = fakeCatalogue({}, { otherwise: 'pending' });
    renderScreen(Browse);
    expect(screen.getByRole('heading', { level: 1, name: 'Home' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Activate sound' })).toBeInTheDocument();
    expect(rowHeadings()).toEqual(['Comedy movies', 'Mystery series', 'Action movies', 'Drama series', 'Horror movies']);
    expect(requested().sort()).toEqual(
      [
        'discover/movie?with_genres=35',
        'discover/tv?with_genres=9648',
        'discover/movie?with_genres=28',
        'discover/tv?with_genres=18',
        'discover/movie?with_genres=27',
        // The billboard's featured title.
        'movie/popular',
      ].sort(),
    );
  });

  it('/movies: one heading, the featured movie, and the five movie rows with drama labelled as such', () => {
    const { requested } = fakeCatalogue({}, { otherwise: 'pending' });
    renderScreen(Movies);
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Movies']);
    expect(rowHeadings()).toEqual(['Animation', 'Adventure', 'Crime', 'Comedy', 'Drama movies']);
    expect(within(screen.getByRole('region', { name: 'Drama movies' })).getAllByTestId('poster-skeleton')).toHaveLength(5);
    expect(requested()).toEqual(expect.arrayContaining(['movie/popular', 'discover/movie?with_genres=18', 'discover/movie?with_genres=16']));
  });

  it('/series: one heading, the featured series, and the five series rows', () => {
    const { requested } = fakeCatalogue({}, { otherwise: 'pending' });
    renderScreen(Series);
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Series']);
    expect(rowHeadings()).toEqual(['Comedy', 'Mystery', 'Documentary', 'Drama', 'Reality shows']);
    expect(requested()).toEqual(expect.arrayContaining(['tv/popular', 'discover/tv?with_genres=10764', 'discover/tv?with_genres=99']));
  });

  it('/downloads: says honestly that downloads are not available and offers the catalogue', () => {
    renderScreen(Downloads);
    expect(screen.getByRole('heading', { level: 1, name: 'Downloads' })).toBeInTheDocument();
    expect(screen.getByText('Downloads are not available on the web yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse titles' })).toHaveAttribute('href', '/browse');
  });
});
