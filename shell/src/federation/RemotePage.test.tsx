import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { RemotePage } from './RemotePage';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn() }));
const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;

beforeEach(() => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  jest.spyOn(console, 'error').mockImplementation(() => {});
});

it('shows a loading state with the page’s one level-one heading, then the remote page', async () => {
  let resolve!: (module: unknown) => void;
  mockedLoadRemote.mockReturnValueOnce(new Promise((r) => (resolve = r)));
  render(<RemotePage remote="remote-title" module="LoadsSlowly" />);
  expect(screen.getByRole('status', { name: 'Loading this part of Netnet' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Loading this part of Netnet');
  resolve({ default: () => <h1>Title page</h1> });
  expect(await screen.findByRole('heading', { name: 'Title page' })).toBeInTheDocument();
  expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  expect(mockedLoadRemote).toHaveBeenCalledWith('remote_title/LoadsSlowly');
});

it('shows a readable fallback when a remote fails, and Retry really loads it again', async () => {
  mockedLoadRemote
    .mockRejectedValueOnce(new Error('network down'))
    .mockResolvedValueOnce({ default: () => <h1>Search page</h1> });
  render(<RemotePage remote="remote-search" module="FailsOnce" />);
  expect(await screen.findByRole('alert')).toHaveTextContent('This part of Netnet is unavailable right now');

  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('heading', { name: 'Search page' })).toBeInTheDocument();
  await waitFor(() => expect(mockedLoadRemote).toHaveBeenCalledTimes(2));
});

it('treats a module without a page as a failure', async () => {
  mockedLoadRemote.mockResolvedValueOnce({});
  render(<RemotePage remote="remote-browse" module="Empty" />);
  expect(await screen.findByRole('alert')).toHaveTextContent('unavailable');
});

it('a failed page is tried again when the member comes back to it', async () => {
  mockedLoadRemote
    .mockRejectedValueOnce(new Error('down'))
    .mockResolvedValueOnce({ default: () => <h1>Back again</h1> });
  const { unmount } = render(<RemotePage remote="remote-auth" module="ComesBack" />);
  expect(await screen.findByRole('alert')).toBeInTheDocument();
  unmount();
  render(<RemotePage remote="remote-auth" module="ComesBack" />);
  expect(await screen.findByRole('heading', { name: 'Back again' })).toBeInTheDocument();
});

it('a page whose warm-up load just failed shows that failure: one request, not a second one at once', async () => {
  mockedLoadRemote.mockRejectedValueOnce(new Error('chunk refused')).mockResolvedValueOnce({ default: () => <h1>Too late</h1> });
  const { loadPage } = await import('./preload');
  // The boot's warm-up asks first, and fails before the page renders.
  await expect(loadPage('remote_search/WarmedUp')).rejects.toThrow('chunk refused');
  render(<RemotePage remote="remote-search" module="WarmedUp" />);
  expect(await screen.findByRole('alert')).toHaveTextContent('This part of Netnet is unavailable right now');
  expect(mockedLoadRemote).toHaveBeenCalledTimes(1);
  // Retry does ask again.
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByRole('heading', { name: 'Too late' })).toBeInTheDocument();
  expect(mockedLoadRemote).toHaveBeenCalledTimes(2);
});
