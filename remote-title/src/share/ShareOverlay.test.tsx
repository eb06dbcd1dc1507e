import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ShareOverlay } from './ShareOverlay';

it('explains, instead of crashing, when there is no link to share', async () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  const open = jest.spyOn(window, 'open');
  const onClose = jest.fn();
  render(<ShareOverlay title="Dune" url="" onClose={onClose} />);
  await userEvent.click(screen.getByRole('button', { name: 'LinkedIn' }));
  expect(screen.getByRole('alert')).toHaveTextContent('This title has no link to share.');
  expect(open).not.toHaveBeenCalled();
  expect(onClose).not.toHaveBeenCalled();
});

it('uses the phone share link of WhatsApp on a phone', async () => {
  jest.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148');
  const open = jest.spyOn(window, 'open').mockReturnValue({} as Window);
  render(<ShareOverlay title="Dune" url="https://netnet.example/title/1" onClose={() => {}} />);
  await userEvent.click(screen.getByRole('button', { name: 'WhatsApp' }));
  expect(String(open.mock.calls[0]![0])).toBe(
    'https://api.whatsapp.com/send?text=Seen%20%22Dune%22%20on%20Netnet%20yet%3F%20https%3A%2F%2Fnetnet.example%2Ftitle%2F1',
  );
});
