import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { CredentialsForm } from './CredentialsForm';

describe('CredentialsForm', () => {
  it('keeps what the member typed into the server’s form before the browser took it over', async () => {
    const onSubmit = jest.fn(async () => null);
    const form = (
      <CredentialsForm
        submitLabel="Sign In"
        pendingLabel="Signing in"
        passwordAutoComplete="current-password"
        onSubmit={onSubmit}
        failureMessage="We couldn’t sign you in right now."
      />
    );
    // The server's markup, parsed as the browser parses a page, and typed into before any script runs.
    const page = new DOMParser().parseFromString(`<div>${renderToString(form)}</div>`, 'text/html');
    const container = document.importNode(page.body.firstElementChild!, true) as HTMLElement;
    document.body.append(container);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    (screen.getByLabelText('Email address') as HTMLInputElement).value = 'ann@example.com';
    (screen.getByLabelText('Password') as HTMLInputElement).value = 'secret-42';

    await act(async () => void hydrateRoot(container, form));

    expect(screen.getByLabelText('Email address')).toHaveValue('ann@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('secret-42');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(onSubmit).toHaveBeenCalledWith({ email: 'ann@example.com', password: 'secret-42' });
    container.remove();
  });
});
