import { screen, within } from '@testing-library/react';
import { Navigate, Route, Routes, type SignUpResult } from '@netnet/shared';
import { deferred, fakeCatalogue, renderPage } from '@netnet/shared/testing';
import Landing from './Landing';
import { fakeAuthActions, renderPages } from '../testing/renderPages';

const email = () => screen.getByLabelText('Email address');
const password = () => screen.getByLabelText('Password');
const getStarted = () => screen.getByRole('button', { name: 'Get Started' });

async function fillIn(user: ReturnType<typeof renderPages>['user'], address = 'ann@example.com', secret = 'secret-42') {
  await user.type(email(), address);
  await user.type(password(), secret);
}

describe('/ sign-up', () => {
  it('invites the visitor to sign up under the tagline', () => {
    fakeAuthActions();
    renderPages('/');

    expect(screen.getByRole('heading', { level: 1, name: 'Unlimited movies, TV shows, and more.' })).toBeInTheDocument();
    expect(screen.getByText('Watch anywhere. Cancel anytime.')).toBeInTheDocument();
    const form = screen.getByRole('form', {
      name: 'Ready to watch? Enter your email to create or restart your membership.',
    });
    expect(within(form).getByLabelText('Email address')).toHaveAttribute('type', 'email');
    expect(within(form).getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(within(form).getByRole('button', { name: 'Get Started' })).toBeEnabled();
  });

  it('tells a visitor the shell’s guard sent here from a members’ link that it is kept and opens once they are in', async () => {
    fakeAuthActions();
    fakeCatalogue(() => 'pending');
    renderPage(
      <Routes>
        <Route path="/" element={<Landing />} />
        <Route path="/tv/:id" element={<Navigate to="/" replace state={{ from: '/tv/1103?play=1' }} />} />
      </Routes>,
      { path: '/tv/1103?play=1' },
    );
    const kept = await screen.findByText('We’ve kept your link. Sign in or sign up to open it.');
    // Read before the tagline: the first thing the visitor meets.
    expect(kept.compareDocumentPosition(screen.getByRole('heading', { level: 1 })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says nothing of a kept link to a visitor who came to / itself', () => {
    fakeAuthActions();
    renderPages('/');
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(/kept the link/)).not.toBeInTheDocument();
  });

  it('asks the shell for the sign-in service once the visitor starts on the form, not before', async () => {
    const prepare = jest.fn();
    fakeAuthActions({ prepare });
    const { user } = renderPages('/');

    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(prepare).not.toHaveBeenCalled();
    await user.click(email());
    expect(prepare).toHaveBeenCalled();
  });

  it('shows errors from the first blur of each field, wired to it', async () => {
    fakeAuthActions();
    const { user } = renderPages('/');

    await user.click(email());
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    await user.tab();
    expect(email()).toHaveAttribute('aria-invalid', 'true');
    expect(email()).toHaveAccessibleDescription('Email is required');
    // The password field has not been touched yet.
    expect(password()).toHaveAttribute('aria-invalid', 'false');

    await user.type(password(), '     ');
    await user.tab();
    expect(password()).toHaveAccessibleDescription('Password is required');
    await user.clear(password());
    await user.type(password(), 'x'.repeat(61));
    expect(password()).toHaveAccessibleDescription('Password should be between 6 and 60 characters');
  });

  it('does not call the service with invalid values', async () => {
    const auth = fakeAuthActions();
    const { user } = renderPages('/');

    await fillIn(user, 'ann@example', '123');
    await user.click(getStarted());

    expect(email()).toHaveAccessibleDescription('Please enter a valid email address');
    expect(password()).toHaveAccessibleDescription('Password should be between 6 and 60 characters');
    expect(auth.signUp).not.toHaveBeenCalled();
  });

  it('shows a spinner in the disabled button while the account is created', async () => {
    const call = deferred<SignUpResult>();
    const auth = fakeAuthActions({ signUp: jest.fn(() => call.promise) });
    const { user, where } = renderPages('/');

    await fillIn(user, '  ann@example.com ');
    await user.click(getStarted());

    expect(auth.signUp).toHaveBeenCalledWith('ann@example.com', 'secret-42');
    const button = screen.getByRole('button', { name: 'Creating your membership' });
    expect(button).toBeDisabled();
    expect(within(button).getByRole('status')).toBeInTheDocument();

    // Success: the shell's guard takes the new member on; the page itself stays put.
    call.resolve({ redirect: false });
    expect(await screen.findByRole('button', { name: 'Get Started' })).toBeEnabled();
    expect(where().path).toBe('/');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('sends a known address on to /login with it prefilled, replacing history', async () => {
    fakeAuthActions({ signUp: jest.fn(async () => ({ redirect: true })) });
    const { user, where } = renderPages('/');

    await fillIn(user, 'ann+tv@example.com');
    await user.click(getStarted());

    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(where()).toEqual({ path: '/login?email=ann%2Btv%40example.com', navigationType: 'REPLACE' });
    expect(email()).toHaveValue('ann+tv@example.com');
    // The password typed comes along (in memory, not in the address), and the member is told why.
    expect(screen.getByLabelText('Password')).toHaveValue('secret-42');
    expect(screen.getByRole('status')).toHaveTextContent('ann+tv@example.com already has a Netnet account. Sign in to continue.');
  });

  it('hands the password over once: a later visit to /login starts empty', async () => {
    fakeAuthActions({ signUp: jest.fn(async () => ({ redirect: true })) });
    const { user, unmount } = renderPages('/');
    await fillIn(user, 'ann@example.com');
    await user.click(getStarted());
    // Sign In, not the sign-up form's own Password field (which holds the same text until the page moves on).
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveValue('secret-42');
    unmount();

    renderPages('/login?email=ann%40example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.queryByText(/already has a Netnet account/)).not.toBeInTheDocument();
  });

  it('shows a refusal above the form and keeps the values', async () => {
    fakeAuthActions({
      signUp: jest.fn(async () => ({ redirect: false, error: 'Password should be between 6 and 60 characters' })),
    });
    const { user } = renderPages('/');

    await fillIn(user);
    await user.click(getStarted());

    expect(await screen.findByRole('alert')).toHaveTextContent('Password should be between 6 and 60 characters');
    expect(email()).toHaveValue('ann@example.com');
    expect(password()).toHaveValue('secret-42');
  });

  it('says so when the service cannot be reached', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    fakeAuthActions({ signUp: jest.fn(() => Promise.reject(new Error('auth/network-request-failed'))) });
    const { user } = renderPages('/');

    await fillIn(user);
    await user.click(getStarted());

    expect(await screen.findByRole('alert')).toHaveTextContent(/couldn’t create your membership right now/);
    expect(getStarted()).toBeEnabled();
    expect(logged).toHaveBeenCalled();
  });
});
