import { screen } from '@testing-library/react';
import { fakeCatalogue, freshIndexedDB, newMemberId, page, renderPage } from '@netnet/shared/testing';
import { fakeMediaPlayback } from '../testing/fakeMedia';
import { Billboard } from './Billboard';

const nameOfFocused = () => {
  const focused = document.activeElement as HTMLElement | null;
  return focused?.getAttribute('aria-label') ?? focused?.textContent?.trim();
};

describe('Billboard', () => {
  beforeEach(async () => {
    await freshIndexedDB();
    fakeMediaPlayback();
  });

  it('takes Tab to Play, More info and My list before the trailer’s Play and sound controls', async () => {
    fakeCatalogue({ 'movie/popular': page([{ id: 42, title: 'Top Movie', overview: 'A synopsis.' }]) });
    const { user } = renderPage(<Billboard />, { auth: newMemberId() });
    expect(await screen.findByRole('heading', { level: 2, name: 'Top Movie' })).toBeInTheDocument();

    const stops: (string | undefined)[] = [];
    for (let press = 0; press < 5; press++) {
      await user.tab();
      stops.push(nameOfFocused());
    }
    expect(stops).toEqual(['Play', 'More info', expect.stringMatching(/My list/), 'Play trailer', 'Activate sound']);
  });

  it('is the trailer and its controls alone while the featured title loads', () => {
    fakeCatalogue({ 'movie/popular': 'pending' });
    renderPage(<Billboard />, { auth: newMemberId() });
    expect(screen.getByRole('region', { name: 'Trailer' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Play' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Activate sound' })).toBeInTheDocument();
  });
});
