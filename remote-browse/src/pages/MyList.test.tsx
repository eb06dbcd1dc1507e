import { screen, within } from '@testing-library/react';
import * as shared from '@netnet/shared';
import { type AuthState, save } from '@netnet/shared';
import userEvent from '@testing-library/user-event';
import { anonymous, newMemberId, renderPage, loadTestRuntimeConfig, busyIndexedDB, withoutIndexedDB } from '@netnet/shared/testing';
import MyList from './MyList';

beforeEach(loadTestRuntimeConfig);

/** The page for `auth`: a member id, or a visitor. */
const renderMyList = (auth: string | AuthState) => renderPage(<MyList />, { auth });

describe('My list page', () => {
  it('tells a member with an empty list how to add titles', async () => {
    renderMyList(newMemberId());
    expect(screen.getByRole('heading', { level: 1, name: 'My list' })).toBeInTheDocument();
    expect(await screen.findByText('Your list is empty.')).toBeInTheDocument();
    expect(screen.getByText(/button on its page/)).toHaveTextContent('My list');
    expect(screen.getByRole('link', { name: 'Find movies' })).toHaveAttribute('href', '/movies');
  });

  it('shows how titles get here at once, before the list is read, and the list below it', async () => {
    renderMyList(newMemberId());
    // The list is read from the browser's storage; what the member reads first does not wait for it.
    const hint = screen.getByText(/button on its page/);
    expect(screen.getByRole('status', { name: 'Loading My list' })).toBeInTheDocument();
    const empty = await screen.findByText('Your list is empty.');
    expect(hint).toBeInTheDocument();
    expect(hint.compareDocumentPosition(empty) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows the saved titles newest first, each linking to its page by type', async () => {
    const uid = newMemberId();
    await save(uid, { id: 11, type: 'movie', name: 'Oldest Movie', poster: '/a.jpg' }, 1000);
    await save(uid, { id: 11, type: 'tv', name: 'Same Id Series', poster: '/b.jpg' }, 2000);
    await save(uid, { id: 7, type: 'movie', name: 'Newest Movie', poster: null }, 3000);
    renderMyList(uid);

    const list = await screen.findByRole('list', { name: 'Saved titles' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/title/7', '/tv/11', '/title/11']);
    expect(within(links[1]!).getByRole('img', { name: 'Same Id Series' })).toBeInTheDocument();
    expect(screen.getByText('3 titles')).toBeInTheDocument();
    expect(screen.queryByText('Your list is empty.')).not.toBeInTheDocument();
  });

  it('only shows the signed-in member’s own titles', async () => {
    const someoneElse = newMemberId();
    await save(someoneElse, { id: 5, type: 'movie', name: 'Not Yours', poster: null });
    renderMyList(newMemberId());
    expect(await screen.findByText('Your list is empty.')).toBeInTheDocument();
    expect(screen.queryByText('Not Yours')).not.toBeInTheDocument();
  });

  it('takes a title off the list and moves focus to the next one', async () => {
    const uid = newMemberId();
    await save(uid, { id: 1, type: 'movie', name: 'Keep Me', poster: null }, 1000);
    await save(uid, { id: 2, type: 'tv', name: 'Drop Me', poster: null }, 2000);
    const { user } = renderMyList(uid);

    await user.click(await screen.findByRole('button', { name: 'Remove Drop Me from My list' }));

    expect(await screen.findByText('1 title')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Drop Me' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Keep Me' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove Keep Me from My list' })).toHaveFocus();
    await expect(shared.isSaved(uid, 'tv', 2)).resolves.toBe(false);
  });

  it('shows the empty state once the last title is removed', async () => {
    const uid = newMemberId();
    await save(uid, { id: 3, type: 'movie', name: 'Only One', poster: null });
    const { user } = renderMyList(uid);

    await user.click(await screen.findByRole('button', { name: 'Remove Only One from My list' }));

    expect(await screen.findByText('Your list is empty.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'My list' })).toHaveFocus();
  });

  it('says so when the list cannot be read on this browser', async () => {
    renderMyList(anonymous);
    expect(await screen.findByText(/My list can’t be read on this browser/)).toBeInTheDocument();
    expect(screen.queryByText('Your list is empty.')).not.toBeInTheDocument();
  });

  it('reads the list again on Retry: storage that was busy once may answer now', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    const uid = newMemberId();
    await save(uid, { id: 7, type: 'movie', name: 'Dune', poster: null });
    const usual = globalThis.indexedDB;
    const browser = await busyIndexedDB();
    renderMyList(uid);
    expect(await screen.findByText(/My list can’t be read on this browser/)).toBeInTheDocument();
    browser.answer();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const saved = await screen.findByRole('list', { name: 'Saved titles' });
    expect(within(saved).getByRole('link', { name: /Dune/ })).toBeInTheDocument();
    expect(screen.queryByText(/My list can’t be read on this browser/)).not.toBeInTheDocument();
    await withoutIndexedDB(usual);
  });
});
