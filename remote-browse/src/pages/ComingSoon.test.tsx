import { screen, within } from '@testing-library/react';
import ComingSoon from './ComingSoon';
import { fakeCatalogue, page, renderPage } from '@netnet/shared/testing';

const renderComingSoon = () => renderPage(<ComingSoon />);

describe('Coming soon page', () => {
  it('shows a loading state under its heading', () => {
    fakeCatalogue({ 'movie/upcoming': 'pending' });
    renderComingSoon();
    expect(screen.getByRole('heading', { level: 1, name: 'Coming soon' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading upcoming titles');
  });

  it('lists upcoming movies soonest first with poster, name, release date in words and overview', async () => {
    fakeCatalogue({
      'movie/upcoming': page([
        { id: 2, title: 'Later One', release_date: '2027-03-12', overview: 'It happens later.' },
        { id: 1, title: 'Sooner One', release_date: '2026-12-01', overview: 'It happens sooner.', poster_path: '/s.jpg' },
        { id: 3, title: 'Undated One', release_date: '', overview: '' },
      ]),
    });
    renderComingSoon();

    const list = await screen.findByRole('list', { name: 'Upcoming movies' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual(['Sooner One', 'Later One', 'Undated One']);
    expect(within(items[0]!).getByText('Coming 1 December 2026')).toBeInTheDocument();
    expect(within(items[0]!).getByText('It happens sooner.')).toBeInTheDocument();
    expect(within(items[0]!).getByRole('link', { name: 'Sooner One' })).toHaveAttribute('href', '/title/1');
    expect(within(items[1]!).getByText('Coming 12 March 2027')).toBeInTheDocument();
    expect(within(items[2]!).getByText('Release date to be announced')).toBeInTheDocument();
  });

  it('says something went wrong when the catalogue fails, and tries again on Retry', async () => {
    const answers: Record<string, unknown> = { 'movie/upcoming': { status: 500 } };
    fakeCatalogue(answers);
    const { user } = renderComingSoon();

    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    answers['movie/upcoming'] = page([{ id: 4, title: 'Recovered', release_date: '2027-01-05' }]);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Coming 5 January 2027')).toBeInTheDocument();
  });
});
