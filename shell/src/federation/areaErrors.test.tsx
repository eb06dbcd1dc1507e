import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { recordRemote, startRolloutStatus } from '../rollout/rolloutStatus';
import { AREA_ERROR_EVENT, areaErrorsSoFar, type AreaError } from './areaErrors';
import { RemotePage } from './RemotePage';

// What an area's boundary tells release health: which release gave up, and whether its code could
// not be had (a failed release) or its page threw while rendering.

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn() }));
const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;

let told: AreaError[] = [];
const listen = (event: Event) => told.push((event as CustomEvent<AreaError>).detail);

beforeEach(() => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  jest.spyOn(console, 'error').mockImplementation(() => {});
  told = [];
  window.addEventListener(AREA_ERROR_EVENT, listen);
  startRolloutStatus({ debug: false, overrides: {} });
  recordRemote('remote-title', { version: '1.4.0', channel: 'canary', entry: 'https://cdn.test/remote-title/1.4.0/mf-manifest.json', bucket: 3, state: 'chosen' });
});

afterEach(() => window.removeEventListener(AREA_ERROR_EVENT, listen));

const unavailable = () => screen.findByRole('alert');

it('a page that cannot be loaded is a load failure of the release the rollout chose', async () => {
  mockedLoadRemote.mockRejectedValueOnce(new Error('[ Federation Runtime ]: RUNTIME-008'));
  render(<RemotePage remote="remote-title" module="LoadFails" />);
  expect(await unavailable()).toHaveTextContent('This part of Netnet is unavailable right now');
  expect(told).toEqual([{ remote: 'remote-title', phase: 'load', release: { version: '1.4.0', channel: 'canary' } }]);
});

it('a module without a page is a load failure too', async () => {
  mockedLoadRemote.mockResolvedValueOnce({});
  render(<RemotePage remote="remote-title" module="NoPage" />);
  await unavailable();
  expect(told.map(({ phase }) => phase)).toEqual(['load']);
});

it('a page that throws while rendering is a render error', async () => {
  recordRemote('remote-title', { state: 'loaded' });
  mockedLoadRemote.mockResolvedValueOnce({
    default: () => {
      throw new TypeError('Cannot read properties of undefined');
    },
  });
  render(<RemotePage remote="remote-title" module="Throws" />);
  expect(await unavailable()).toHaveTextContent('This part of Netnet is unavailable right now');
  expect(told).toEqual([{ remote: 'remote-title', phase: 'render', release: { version: '1.4.0', channel: 'canary' } }]);
});

it('a file the page loads later that fails is a load failure, not the page throwing', async () => {
  mockedLoadRemote.mockResolvedValueOnce({
    default: () => {
      throw Object.assign(new Error('Loading chunk 823 failed.'), { name: 'ChunkLoadError' });
    },
  });
  render(<RemotePage remote="remote-title" module="ChunkFails" />);
  await unavailable();
  expect(told.map(({ phase }) => phase)).toEqual(['load']);
});

it('after a failed load, a Retry that renders and throws is a render error', async () => {
  mockedLoadRemote.mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce({
    default: () => {
      throw new Error('render');
    },
  });
  render(<RemotePage remote="remote-title" module="LoadThenThrow" />);
  await unavailable();
  await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
  await waitFor(() => expect(told.map(({ phase }) => phase)).toEqual(['load', 'render']));
});

it('an area of a remote the map lacks names no release, and the first few are kept for later', async () => {
  const before = areaErrorsSoFar().length;
  mockedLoadRemote.mockRejectedValueOnce(new Error('down'));
  render(<RemotePage remote="remote-search" module="Unmapped" />);
  await unavailable();
  expect(told).toEqual([{ remote: 'remote-search', phase: 'load', release: null }]);
  expect(areaErrorsSoFar().slice(before)).toEqual(told);
});
