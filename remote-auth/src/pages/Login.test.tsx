import { screen, waitFor, within } from '@testing-library/react';
import type { SignInError } from '@netnet/shared';
import { deferred } from '@netnet/shared/testing';
import { fakeAuthActions, renderPages } from '../testing/renderPages';

const email = () => screen.getByLabelText('Email address');
const password = () => screen.getByLabelText('Password');
const signInButton = () => screen.getByRole('button', { name: 'Sign In' });

describe('/login', () => {
  it('shows the sign-in form and the way to sign up', async () => {
    fakeAuthActions();
    const { user, where } = renderPages('/login');

    expect(screen.getByRole('heading', { level: 1, name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Sign In' })).toBeInTheDocument();
    expect(email()).toHaveValue('');
    expect(password()).toHaveAttribute('type', 'password');
    expect(screen.getByText(/New to Netnet\?/)).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Sign up now' }));
    expect(where().path).toBe('/');
  });

  it('prefills the email from ?email= as plain text', () => {
    fakeAuthActions();
    renderPages(`/login?email=${encodeURIComponent('ann+tv@example.com')}`);
    expect(email()).toHaveValue('ann+tv@example.com');
  });

  it('never renders ?email= as markup and caps it at 254 characters', () => {
    fakeAuthActions();
    const hostile = `<img src=x onerror=alert(1)>${'a'.repeat(400)}`;
    const { container } = renderPages(`/login?email=${encodeURIComponent(hostile)}`);
    expect(container.querySelector('img')).toBeNull();
    expect(email()).toHaveValue(hostile.slice(0, 254));
  });

  it('shows a field’s error from its first blur, wired to the field', async () => {
    fakeAuthActions();
    const { user } = renderPages('/login');

    await user.type(email(), 'ann');
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument();
    expect(email()).toHaveAttribute('aria-invalid', 'false');

    await user.tab();
    expect(email()).toHaveAttribute('aria-invalid', 'true');
    expect(email()).toHaveAccessibleDescription('Please enter a valid email address');

    // Once touched, the message follows the value as the member types.
    await user.type(email(), '@example.com');
    expect(email()).toHaveAttribute('aria-invalid', 'false');
    expect(email()).not.toHaveAccessibleDescription();

    await user.click(password());
    await user.tab();
    expect(password()).toHaveAccessibleDescription('Password is required');
    await user.type(password(), '12345');
    expect(password()).toHaveAccessibleDescription('Password should be between 6 and 60 characters');
    await user.type(password(), '6');
    expect(password()).toHaveAttribute('aria-invalid', 'false');
  });

  it('on submit, shows every error, focuses the first and does not call the service', async () => {
    const auth = fakeAuthActions();
    const { user } = renderPages('/login');

    await user.click(signInButton());

    expect(email()).toHaveAccessibleDescription('Email is required');
    expect(password()).toHaveAccessibleDescription('Password is required');
    expect(email()).toHaveFocus();
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it('shows a spinner and disables the button while signing in', async () => {
    const call = deferred<SignInError | null>();
    const auth = fakeAuthActions({ signIn: jest.fn(() => call.promise) });
    const { user } = renderPages('/login?email=ann%40example.com');

    await user.type(password(), 'secret-42');
    await user.click(signInButton());

    expect(auth.signIn).toHaveBeenCalledWith('ann@example.com', 'secret-42');
    const button = screen.getByRole('button', { name: 'Signing in' });
    expect(button).toBeDisabled();
    expect(within(button).getByRole('status', { name: 'Signing in' })).toBeInTheDocument();

    // A second press while pending does nothing.
    await user.click(button);
    expect(auth.signIn).toHaveBeenCalledTimes(1);

    call.resolve(null);
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a refusal above the form and keeps what was typed', async () => {
    fakeAuthActions({ signIn: jest.fn(async () => ({ message: 'Incorrect password. Please try again' })) });
    const { user } = renderPages('/login');

    await user.type(email(), 'ann@example.com');
    await user.type(password(), 'wrong-one');
    await user.click(signInButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Incorrect password. Please try again');
    expect(within(alert).queryByRole('link')).not.toBeInTheDocument();
    expect(alert.compareDocumentPosition(screen.getByRole('form'))).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    expect(email()).toHaveValue('ann@example.com');
    expect(password()).toHaveValue('wrong-one');
  });

  it('offers to create an account when the shell says so', async () => {
    fakeAuthActions({
      signIn: jest.fn(async () => ({
        message: "Sorry, we can't find an account with this email address. Please try again or create a new account.",
        offerSignUp: true,
      })),
    });
    const { user, where } = renderPages('/login');

    await user.type(email(), 'nobody@example.com');
    await user.type(password(), 'secret-42');
    await user.click(signInButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      "Sorry, we can't find an account with this email address. Please try again or create a new account.",
    );
    await user.click(within(alert).getByRole('link', { name: 'create a new account' }));
    expect(where().path).toBe('/');
  });

  it('adds the sign-up link when the message does not mention it', async () => {
    fakeAuthActions({ signIn: jest.fn(async () => ({ message: 'Incorrect email or password.', offerSignUp: true })) });
    const { user } = renderPages('/login?email=ann%40example.com');

    await user.type(password(), 'secret-42');
    await user.click(signInButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Incorrect email or password. Create a new account.');
    expect(within(alert).getByRole('link', { name: 'Create a new account' })).toHaveAttribute('href', '/');
  });

  it('says so when the sign-in service cannot be reached', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    fakeAuthActions({ signIn: jest.fn(async () => Promise.reject(new TypeError('Failed to fetch'))) });
    const { user } = renderPages('/login?email=ann%40example.com');

    await user.type(password(), 'secret-42');
    await user.click(signInButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(/couldn’t sign you in right now/);
    expect(signInButton()).toBeEnabled();
    expect(password()).toHaveValue('secret-42');
    expect(logged).toHaveBeenCalled();
  });

  it('clears an old message when the member tries again', async () => {
    const second = deferred<SignInError | null>();
    const signIn = jest
      .fn<Promise<SignInError | null>, [string, string]>()
      .mockResolvedValueOnce({ message: 'Incorrect password. Please try again' })
      .mockReturnValueOnce(second.promise);
    fakeAuthActions({ signIn });
    const { user } = renderPages('/login?email=ann%40example.com');

    await user.type(password(), 'wrong-one');
    await user.click(signInButton());
    expect(await screen.findByRole('alert')).toBeInTheDocument();

    await user.click(signInButton());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    second.resolve(null);
    await waitFor(() => expect(signInButton()).toBeEnabled());
  });
});
