import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '@netnet/shared';
import { ProfileMenu } from './ProfileMenu';

// The open menu's code is a chunk of its own, fetched when the page is idle: a member who clicks
// before then gets the menu as soon as it has arrived, focus on its first item.
it('opens once its code has arrived when it is clicked before the page was idle', async () => {
  render(
    <MemoryRouter initialEntries={['/browse']}>
      <ProfileMenu />
    </MemoryRouter>,
  );
  const button = screen.getByRole('button', { name: 'Profile menu' });
  await userEvent.click(button);
  expect(button).toHaveAttribute('aria-expanded', 'true');
  expect(await screen.findByRole('menu', { name: 'Profiles' })).toBeInTheDocument();
  expect(await screen.findByRole('menuitem', { name: 'Ana' })).toHaveFocus();
});
