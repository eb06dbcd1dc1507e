import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, provideAuthActions, Route, Routes } from '@netnet/shared';
import { loadProfileMenuList, ProfileMenu } from './ProfileMenu';

const signOut = jest.fn<Promise<void>, []>();
provideAuthActions({ signIn: jest.fn(), signUp: jest.fn(), signOut: () => signOut() });

// As on a page that has been idle a moment: the open menu's code is here.
beforeAll(() => loadProfileMenuList());

function renderMenu() {
  render(
    <MemoryRouter initialEntries={['/browse']}>
      <Routes>
        <Route
          path="/browse"
          element={
            <>
              <ProfileMenu />
              <p>outside</p>
              <a href="#next">Next link</a>
            </>
          }
        />
        <Route path="/" element={<h1>Landing</h1>} />
      </Routes>
    </MemoryRouter>,
  );
  return { user: userEvent.setup(), button: screen.getByRole('button', { name: 'Profile menu' }) };
}

const item = (name: string) => screen.getByRole('menuitem', { name });

it('is a menu button: opens with the three profiles and the sign-out entry, and closes on Escape', async () => {
  const { button } = renderMenu();
  expect(button).toHaveAttribute('aria-haspopup', 'menu');
  expect(button).toHaveAttribute('aria-expanded', 'false');
  await userEvent.click(button);
  expect(button).toHaveAttribute('aria-expanded', 'true');
  expect(screen.getByRole('menu', { name: 'Profiles' })).toBeInTheDocument();
  const items = screen.getAllByRole('menuitem').map((entry) => entry.textContent);
  expect(items).toEqual(['Ana', 'Ben', 'Kids', 'Sign out of Netnet']);
  expect(item('Ana')).toHaveFocus();

  await userEvent.keyboard('{Escape}');
  expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  expect(button).toHaveAttribute('aria-expanded', 'false');
  expect(button).toHaveFocus();
});

it('is reached with Tab, as one stop', async () => {
  const { user, button } = renderMenu();
  await user.tab();
  expect(button).toHaveFocus();
  await user.tab();
  expect(screen.getByRole('link', { name: 'Next link' })).toHaveFocus();
});

// Each step: the keys pressed, then the item that has focus. Every case starts on the closed menu's button.
it.each<[string, [keys: string, focused: string][]]>([
  [
    'the arrows move through the items and wrap, Home and End jump',
    [
      ['{ArrowDown}', 'Ana'],
      ['{ArrowDown}', 'Ben'],
      ['{End}', 'Sign out of Netnet'],
      ['{ArrowDown}', 'Ana'],
      ['{ArrowUp}', 'Sign out of Netnet'],
      ['{Home}', 'Ana'],
    ],
  ],
  [
    'ArrowUp opens on the last item, Enter and Space on the first',
    [
      ['{ArrowUp}', 'Sign out of Netnet'],
      ['{Escape}{Enter}', 'Ana'],
      ['{Escape} ', 'Ana'],
    ],
  ],
  [
    'a letter moves to the next item starting with it, wrapping; other letters move nothing',
    [
      ['{ArrowDown}k', 'Kids'],
      ['S', 'Sign out of Netnet'],
      ['a', 'Ana'],
      ['z', 'Ana'],
    ],
  ],
])('keyboard: %s', async (_, steps) => {
  const { user, button } = renderMenu();
  button.focus();
  for (const [keys, focused] of steps) {
    await user.keyboard(keys);
    expect(item(focused)).toHaveFocus();
  }
});

it('closes when a profile is chosen, with focus back on its button', async () => {
  const { user, button } = renderMenu();
  button.focus();
  await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
  expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  expect(button).toHaveFocus();
});

it('closes on Tab, and focus moves on to what follows the button', async () => {
  const { user, button } = renderMenu();
  await user.click(button);
  await user.tab();
  expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Next link' })).toHaveFocus();
});

it('closes on a click outside and on its button', async () => {
  const { button } = renderMenu();
  await userEvent.click(button);
  await userEvent.click(screen.getByText('outside'));
  expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  await userEvent.click(button);
  await userEvent.click(button);
  expect(screen.queryByRole('menu')).not.toBeInTheDocument();
});

it('signs out and returns to the landing page', async () => {
  signOut.mockResolvedValueOnce();
  renderMenu();
  await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
  await userEvent.click(item('Sign out of Netnet'));
  expect(await screen.findByRole('heading', { name: 'Landing' })).toBeInTheDocument();
});

it('tells the member when signing out fails', async () => {
  signOut.mockRejectedValueOnce(new Error('offline'));
  renderMenu();
  await userEvent.click(screen.getByRole('button', { name: 'Profile menu' }));
  await userEvent.click(item('Sign out of Netnet'));
  expect(await screen.findByRole('alert')).toHaveTextContent('Signing out failed');
});
