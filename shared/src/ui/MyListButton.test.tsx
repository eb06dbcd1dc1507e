import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { isSaved, listSaved, save } from '../store';
import { freshIndexedDB, renderPage, withoutIndexedDB } from '@netnet/shared/testing';
import { MyListButton } from './MyListButton';

const dune = { id: 7, type: 'movie' as const, name: 'Dune', poster: '/dune.jpg' };

const renderAs = (uid: string, ui = <MyListButton {...dune} />) => renderPage(ui, { auth: uid });

const button = () => screen.getByRole('button', { name: 'My list' });

beforeEach(freshIndexedDB);

it('adds the title to the member’s list, then takes it off again', async () => {
  renderAs('ann');
  await waitFor(() => expect(button()).toHaveAttribute('aria-disabled', 'false'));
  expect(button()).toHaveAttribute('aria-pressed', 'false');

  await userEvent.click(button());
  expect(button()).toHaveAttribute('aria-pressed', 'true');
  await waitFor(async () => expect(await isSaved('ann', 'movie', 7)).toBe(true));
  expect((await listSaved('ann'))[0]).toMatchObject({ name: 'Dune', poster: '/dune.jpg' });

  await waitFor(() => expect(button()).toHaveAttribute('aria-disabled', 'false'));
  await userEvent.click(button());
  expect(button()).toHaveAttribute('aria-pressed', 'false');
  await waitFor(async () => expect(await isSaved('ann', 'movie', 7)).toBe(false));
});

it('shows what is already on the list, for this member only', async () => {
  await save('ann', dune);
  const { unmount } = renderAs('ann');
  await waitFor(() => expect(button()).toHaveAttribute('aria-pressed', 'true'));
  unmount();
  renderAs('bob');
  await waitFor(() => expect(button()).toHaveAttribute('aria-disabled', 'false'));
  expect(button()).toHaveAttribute('aria-pressed', 'false');
});

it('follows a change made by another view of the same title', async () => {
  renderAs('ann');
  await waitFor(() => expect(button()).toHaveAttribute('aria-disabled', 'false'));
  await act(() => save('ann', dune));
  await waitFor(() => expect(button()).toHaveAttribute('aria-pressed', 'true'));
});

it('says so when saving fails, logs it, and returns to the stored state', async () => {
  const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
  jest.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  });
  renderAs('ann');
  await waitFor(() => expect(button()).toHaveAttribute('aria-disabled', 'false'));
  await userEvent.click(button());

  expect(await screen.findByRole('status')).toHaveTextContent('My list could not be updated. Please try again.');
  await waitFor(() => expect(button()).toHaveAttribute('aria-pressed', 'false'));
  expect(logged).toHaveBeenCalled();
});

it('still renders, and explains, when this browser has no IndexedDB', async () => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  await withoutIndexedDB();
  renderAs('ann');
  await waitFor(() => expect(button()).toHaveAccessibleDescription('My list can’t be saved on this browser.'));
  expect(button()).toHaveAttribute('aria-disabled', 'true');
  await userEvent.click(button());
  expect(screen.getByRole('status')).toHaveTextContent('My list can’t be saved on this browser.');
  expect(button()).toHaveAttribute('aria-pressed', 'false');
});
