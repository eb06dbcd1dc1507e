import { screen, within } from '@testing-library/react';
import { Row } from './Row';
import { fakeCatalogue, page, renderPage } from '@netnet/shared/testing';
import type { RowDefinition } from './rowSets';

function renderRow(row: RowDefinition) {
  const { user } = renderPage(<Row row={row} />);
  return { user, region: () => screen.getByRole('region', { name: row.title }) };
}

describe('Row', () => {
  it('shows its heading and five skeleton posters while loading', () => {
    fakeCatalogue({ 'discover/movie?with_genres=35': 'pending' });
    const { region } = renderRow({ id: 35, title: 'Comedy movies', type: 'movie' });

    expect(within(region()).getByRole('heading', { level: 2, name: 'Comedy movies' })).toBeInTheDocument();
    expect(within(region()).getByRole('status')).toHaveTextContent('Loading Comedy movies');
    expect(within(region()).getAllByTestId('poster-skeleton')).toHaveLength(5);
    expect(within(region()).queryByRole('link')).not.toBeInTheDocument();
  });

  it('asks the catalogue for the row’s genre and type', async () => {
    const { requested } = fakeCatalogue({ 'discover/tv?with_genres=9648': page([{ id: 3, name: 'A Mystery' }]) });
    renderRow({ id: 9648, title: 'Mystery series', type: 'tv' });
    await screen.findByRole('link', { name: 'A Mystery' });
    expect(requested()).toEqual(['discover/tv?with_genres=9648']);
  });

  it('links movie posters to /title/{id}, lazily loaded, named by their titles', async () => {
    fakeCatalogue({
      'discover/movie?with_genres=28': page([
        { id: 101, title: 'Fast Thing', poster_path: '/fast.jpg' },
        { id: 102, title: 'Loud Thing', poster_path: '/loud.jpg' },
      ]),
    });
    const { region } = renderRow({ id: 28, title: 'Action movies', type: 'movie' });

    const links = await within(region()).findAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/title/101', '/title/102']);
    const image = within(links[0]!).getByRole('img', { name: 'Fast Thing' });
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image).toHaveAttribute('fetchpriority', 'low');
    expect(image.getAttribute('src')).toMatch(/\/t\/p\/w\d+\/fast\.jpg$/);
    expect(within(region()).getAllByRole('listitem')).toHaveLength(2);
    expect(within(region()).queryAllByTestId('poster-skeleton')).toHaveLength(0);
  });

  it('loads the posters on screen as the page opens first, and the rest lazily after them', async () => {
    const titles = Array.from({ length: 6 }, (_, i) => ({ id: 200 + i, title: `Title ${i}`, poster_path: `/p${i}.jpg` }));
    fakeCatalogue({ 'discover/movie?with_genres=28': page(titles) });
    renderPage(<Row row={{ id: 28, title: 'Action movies', type: 'movie' }} onScreen />);

    const images = await screen.findAllByRole('img');
    expect(images.map((image) => image.getAttribute('loading'))).toEqual(['eager', 'eager', 'eager', 'eager', 'lazy', 'lazy']);
    expect(images[0]).not.toHaveAttribute('fetchpriority', 'low');
    expect(images[4]).toHaveAttribute('fetchpriority', 'low');
  });

  it('links series posters to /tv/{id}', async () => {
    fakeCatalogue({ 'discover/tv?with_genres=18': page([{ id: 77, name: 'Long Drama' }]) });
    const { region } = renderRow({ id: 18, title: 'Drama series', type: 'tv' });
    expect(await within(region()).findByRole('link', { name: 'Long Drama' })).toHaveAttribute('href', '/tv/77');
  });

  it('says something went wrong when the catalogue fails, and tries again on Retry', async () => {
    const answers: Record<string, unknown> = { 'discover/movie?with_genres=27': { status: 500 } };
    fakeCatalogue(answers);
    const { user, region } = renderRow({ id: 27, title: 'Horror movies', type: 'movie' });

    expect(await within(region()).findByText('Something went wrong')).toBeInTheDocument();
    expect(within(region()).queryByRole('link')).not.toBeInTheDocument();

    expect(within(region()).getByRole('button', { name: 'Retry' })).toHaveAccessibleDescription('Horror movies');

    answers['discover/movie?with_genres=27'] = page([{ id: 9, title: 'Back Again' }]);
    await user.click(within(region()).getByRole('button', { name: 'Retry' }));
    expect(await within(region()).findByRole('link', { name: 'Back Again' })).toHaveAttribute('href', '/title/9');
    expect(within(region()).queryByText('Something went wrong')).not.toBeInTheDocument();
  });

  it('moves between posters with the arrow keys, Home and End', async () => {
    fakeCatalogue({
      'discover/movie?with_genres=16': page([
        { id: 1, title: 'One' },
        { id: 2, title: 'Two' },
        { id: 3, title: 'Three' },
      ]),
    });
    const { user } = renderRow({ id: 16, title: 'Animation', type: 'movie' });
    await screen.findByRole('link', { name: 'One' });

    await user.tab();
    expect(screen.getByRole('link', { name: 'One' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('link', { name: 'Two' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('link', { name: 'Three' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('link', { name: 'Three' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('link', { name: 'Two' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('link', { name: 'One' })).toHaveFocus();
  });
});
