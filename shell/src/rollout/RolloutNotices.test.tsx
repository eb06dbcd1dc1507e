import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RolloutNotices } from './RolloutNotices';
import { recordRemote, startRolloutStatus } from './rolloutStatus';

const entry = 'https://cdn.test/remote-title/1.4.0/mf-manifest.json';

it('shows nothing for members: no pins, no ?debug', () => {
  startRolloutStatus({ debug: false, overrides: {} });
  render(<RolloutNotices />);
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  expect(screen.queryByRole('contentinfo', { name: 'Remote versions' })).not.toBeInTheDocument();
});

it('tells QA which versions are pinned, and Clear unpins them', async () => {
  localStorage.setItem('netnet:remote-overrides', JSON.stringify({ 'remote-title': '1.4.0' }));
  startRolloutStatus({ debug: false, overrides: { 'remote-title': '1.4.0', 'remote-search': '2.0.0' } });
  // jsdom cannot navigate; it says so on console.error.
  jest.spyOn(console, 'error').mockImplementation(() => {});
  render(<RolloutNotices />);
  expect(await screen.findByRole('status')).toHaveTextContent('QA overrides active: remote-title 1.4.0, remote-search 2.0.0');
  await userEvent.click(screen.getByRole('button', { name: 'Clear overrides' }));
  expect(localStorage.getItem('netnet:remote-overrides')).toBeNull();
});

it('tells QA which pins were refused (not pinnable here), without offering to clear pins that are not there', async () => {
  startRolloutStatus({ debug: false, overrides: {}, refusedPins: { 'remote-title': '0.9.0' } });
  render(<RolloutNotices />);
  expect(await screen.findByRole('status')).toHaveTextContent('Not pinnable here: remote-title 0.9.0. This page loads what members get.');
  expect(screen.queryByText(/QA overrides active/)).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Clear overrides' })).not.toBeInTheDocument();
});

it('with ?debug, lists the release each remote loaded as it loads', async () => {
  startRolloutStatus({ debug: true, overrides: {} });
  render(<RolloutNotices />);
  const footer = await screen.findByRole('contentinfo', { name: 'Remote versions' });
  expect(footer).toHaveTextContent('remote-title: not loaded');

  act(() => recordRemote('remote-title', { version: '1.4.0', channel: 'canary', entry, bucket: 3.2, state: 'loaded' }));
  expect(footer).toHaveTextContent('remote-title: 1.4.0 (canary)');

  act(() =>
    recordRemote('remote-search', {
      version: '1.0.0',
      channel: 'stable',
      entry,
      bucket: 40,
      state: 'loaded',
      fellBackFrom: { version: '1.1.0', channel: 'canary', reason: '404' },
    }),
  );
  expect(footer).toHaveTextContent('remote-search: 1.0.0 (stable, canary 1.1.0 failed)');
});
