import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, provideAuthActions, Route, Routes } from '@netnet/shared';
import { ProfileMenu } from './ProfileMenu';

const signOut = jest.fn<Promise<void>, []>();
provideAuthActions({ signIn: jest.fn(), signUp: jest.fn(), signOut: () => signOut() });

function renderMenu() {
  render(
    <MemoryRouter initialEntries={['/browse']}>
      <Routes>
        <Route path="/browse" element={<><ProfileMenu /><p>outside</p></>} />
        <Route path="/" element={<h1>Landing</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

it('opens with the three profiles and the sign-out entry, and closes on Escape', async () => {
  renderMenu();
  const button = screen.getByRole('button', { name: 'Profile menu' });
  expect(button).toHaveAttribute('aria-expanded', 'false');
  await userEvent.click(button);
  expect(button).toHaveAttribute('aria-expanded', 'true');
  const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
  expect(items).toEqual(['Ana', 'Ben', 'Kids', 'Sign out of Netnet']);

  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  expect(button).toHaveFocus();
});

it('closes on a click outside and on its button', async () => {
  renderMenu();
  await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
  await userEvent.click(screen.getByText('outside'));
  expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
  await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
  expect(screen.queryByRole('menu')).not.toBeInTheDocument();
});

it('signs out and returns to the landing page', async () => {
  signOut.mockResolvedValueOnce();
  renderMenu();
  await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
  await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out of Netnet' }));
  expect(await screen.findByRole('heading', { name: 'Landing' })).toBeInTheDocument();
});

it('tells the member when signing out fails', async () => {
  signOut.mockRejectedValueOnce(new Error('offline'));
  renderMenu();
  await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
  await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out of Netnet' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Signing out failed');
});
