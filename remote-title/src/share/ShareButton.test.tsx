import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ShareButton } from '../actions/ShareButton';

function openOverlay() {
  render(<ShareButton title="The Matrix" />);
  return userEvent.click(screen.getByRole('button', { name: 'Share' }));
}

const dialog = () => screen.getByRole('dialog', { name: 'Share to ...' });

it('opens a dialog with the five networks and a close button', async () => {
  await openOverlay();
  const buttons = within(dialog()).getAllByRole('button');
  ['Close', 'WhatsApp', 'Telegram', 'Line', 'LinkedIn', 'Facebook'].forEach((name, index) =>
    expect(buttons[index]).toHaveAccessibleName(name),
  );
  expect(buttons).toHaveLength(6);
  expect(within(dialog()).getByRole('button', { name: 'Close' })).toHaveFocus();
});

it('opens a centred popup with the share message, then closes', async () => {
  const open = jest.spyOn(window, 'open').mockReturnValue({ opener: window } as unknown as Window);
  await openOverlay();
  await userEvent.click(screen.getByRole('button', { name: 'Telegram' }));

  const [href, target, features] = open.mock.calls[0]!;
  const url = new URL(String(href));
  expect(url.origin + url.pathname).toBe('https://t.me/share/url');
  expect(url.searchParams.get('url')).toBe(window.location.href);
  expect(url.searchParams.get('text')).toBe('Seen "The Matrix" on Netnet yet?');
  expect(target).toBe('netnet-share-telegram');
  expect(features).toMatch(/width=550,height=400,left=\d+,top=\d+/);
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Share' })).toHaveFocus();
});

it('says so, and stays open, when the browser blocks the popup', async () => {
  jest.spyOn(window, 'open').mockReturnValue(null);
  await openOverlay();
  await userEvent.click(screen.getByRole('button', { name: 'Facebook' }));
  expect(screen.getByRole('alert')).toHaveTextContent('Your browser blocked the share window');
  expect(dialog()).toBeInTheDocument();
});

it('closes on Close and on Escape, giving focus back to Share', async () => {
  await openOverlay();
  await userEvent.click(screen.getByRole('button', { name: 'Close' }));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Share' })).toHaveFocus();

  await userEvent.click(screen.getByRole('button', { name: 'Share' }));
  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Share' })).toHaveFocus();
});

it('keeps Tab inside the overlay while it is open', async () => {
  await openOverlay();
  const close = screen.getByRole('button', { name: 'Close' });
  await userEvent.tab({ shift: true });
  expect(screen.getByRole('button', { name: 'Facebook' })).toHaveFocus();
  await userEvent.tab();
  expect(close).toHaveFocus();
  for (let i = 0; i < 5; i += 1) await userEvent.tab();
  expect(screen.getByRole('button', { name: 'Facebook' })).toHaveFocus();
});
