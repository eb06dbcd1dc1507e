import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as shared from '@netnet/shared';
import { MemoryRouter, save } from '@netnet/shared';
import MyList from './MyList';
import { signInTestMember, signOutTestMember } from '../testing/member';
import { loadTestRuntimeConfig } from '../testing/fakeCatalogue';

beforeEach(loadTestRuntimeConfig);

function renderMyList() {
  const user = userEvent.setup();
  render(
    <MemoryRouter>
      <MyList />
    </MemoryRouter>,
  );
  return { user };
}

describe('My list page', () => {
  it('tells a member with an empty list how to add titles', async () => {
    signInTestMember();
    renderMyList();
    expect(screen.getByRole('heading', { level: 1, name: 'My list' })).toBeInTheDocument();
    expect(await screen.findByText('Your list is empty.')).toBeInTheDocument();
    expect(screen.getByText(/button on its page/)).toHaveTextContent('My list');
    expect(screen.getByRole('link', { name: 'Find movies' })).toHaveAttribute('href', '/movies');
  });

  it('shows the saved titles newest first, each linking to its page by type', async () => {
    const uid = signInTestMember();
    await save(uid, { id: 11, type: 'movie', name: 'Oldest Movie', poster: '/a.jpg' }, 1000);
    await save(uid, { id: 11, type: 'tv', name: 'Same Id Series', poster: '/b.jpg' }, 2000);
    await save(uid, { id: 7, type: 'movie', name: 'Newest Movie', poster: null }, 3000);
    renderMyList();

    const list = await screen.findByRole('list', { name: 'Saved titles' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/title/7', '/tv/11', '/title/11']);
    expect(within(links[1]!).getByRole('img', { name: 'Same Id Series' })).toBeInTheDocument();
    expect(screen.getByText('3 titles')).toBeInTheDocument();
    expect(screen.queryByText('Your list is empty.')).not.toBeInTheDocument();
  });

  it('only shows the signed-in member’s own titles', async () => {
    const someoneElse = signInTestMember();
    await save(someoneElse, { id: 5, type: 'movie', name: 'Not Yours', poster: null });
    signInTestMember();
    renderMyList();
    expect(await screen.findByText('Your list is empty.')).toBeInTheDocument();
    expect(screen.queryByText('Not Yours')).not.toBeInTheDocument();
  });

  it('takes a title off the list and moves focus to the next one', async () => {
    const uid = signInTestMember();
    await save(uid, { id: 1, type: 'movie', name: 'Keep Me', poster: null }, 1000);
    await save(uid, { id: 2, type: 'tv', name: 'Drop Me', poster: null }, 2000);
    const { user } = renderMyList();

    await user.click(await screen.findByRole('button', { name: 'Remove Drop Me from My list' }));

    expect(await screen.findByText('1 title')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Drop Me' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Keep Me' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove Keep Me from My list' })).toHaveFocus();
    await expect(shared.isSaved(uid, 'tv', 2)).resolves.toBe(false);
  });

  it('shows the empty state once the last title is removed', async () => {
    const uid = signInTestMember();
    await save(uid, { id: 3, type: 'movie', name: 'Only One', poster: null });
    const { user } = renderMyList();

    await user.click(await screen.findByRole('button', { name: 'Remove Only One from My list' }));

    expect(await screen.findByText('Your list is empty.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'My list' })).toHaveFocus();
  });

  it('says so when the list cannot be read on this browser', async () => {
    signOutTestMember();
    renderMyList();
    expect(await screen.findByText(/My list can’t be read on this browser/)).toBeInTheDocument();
    expect(screen.queryByText('Your list is empty.')).not.toBeInTheDocument();
  });
});
