import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from './App';
import type { Boot } from './boot';
import { auditEntry, canaryPlan, overview, owner, preview, summary } from './testing/fixtures';
import { dialogsOpenAndClose, fakeApi, fakeEventSource, type Call } from './testing/fakeApi';
import type { Overview, Plan, Session } from './types';

// The console as a release owner signed in for remote-title in production meets it: their remotes
// first, focus back where it was after a change, the audit trail's reasons, and an address outside
// their token said so once, with nothing read, streamed or polled for it.

// The later views load when a test opens them, not on an idle timer that outlives the test.
jest.mock('./laterViews', () => ({ ...jest.requireActual('./laterViews'), loadLaterViews: () => {} }));

beforeEach(dialogsOpenAndClose);
// The dialog's chunk, loaded once for the file (a person's browser has it by the time they click).
beforeAll(() => import('./ChangeDialog'));
afterEach(() => jest.useRealTimers());

const bootWith = (session: Session, first: Overview | null = overview()): Boot => ({ session, first: first && { environment: 'production', overview: first } });

it("lists the remotes the owner may act on first, then the others in the site's order", () => {
  fakeApi(() => ({ status: 404, body: { error: 'not in this test' } }));
  fakeEventSource();
  render(<App boot={bootWith(owner)} hash="#/production" />);
  const cards = screen.getAllByRole('listitem').map((card) => within(card).getByRole('heading', { level: 3 }).textContent);
  expect(cards).toEqual(['remote-title', 'remote-auth', 'remote-browse', 'remote-search']);
});

describe('after a change is confirmed', () => {
  /** The API: a preview of `after`, every change accepted, and the overview then showing `after`. */
  function api(after: Plan): Call[] {
    return fakeApi((call) => {
      if (call.path.includes('/preview?')) return { body: preview(canaryPlan, after) };
      if (call.method !== 'GET') return { body: { environment: 'production', mapVersion: 13, remote: 'remote-title', plan: after, warnings: [] } };
      if (call.path === '/console/api/environments/production/overview') return { body: overview([summary('remote-title', after), summary('remote-search')]) };
      return { status: 404, body: { error: 'no such call' } };
    });
  }

  async function confirm(user: ReturnType<typeof userEvent.setup>, opener: HTMLElement) {
    await user.click(opener);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('What members will get');
    await user.click(within(dialog).getByRole('textbox', { name: 'Reason' }));
    await user.paste('clean hour at 10 %');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }

  it('gives focus back to the control that opened the dialog', async () => {
    api({ stable: '1.4.0', canary: { version: '1.5.0', percent: 10 } });
    fakeEventSource();
    render(<App boot={bootWith(owner)} hash="#/production" />);
    const user = userEvent.setup();
    const opener = screen.getByRole('button', { name: 'Set canary share remote-title' });
    await confirm(user, opener);
    await waitFor(() => expect(opener).toHaveFocus());
    expect(screen.getByText('remote-title in production: stable 1.4.0, canary 1.5.0 at 10 %.')).toBeInTheDocument();
  });

  it('gives focus back on Cancel too', async () => {
    api(canaryPlan);
    fakeEventSource();
    render(<App boot={bootWith(owner)} hash="#/production" />);
    const user = userEvent.setup();
    const rollBack = screen.getByRole('button', { name: 'Roll back remote-title' });
    await user.click(rollBack);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(rollBack).toHaveFocus());
  });

  it('gives focus to what happened when that control can no longer be used', async () => {
    api({ stable: '1.5.0', history: ['1.4.0'] });
    fakeEventSource();
    render(<App boot={bootWith(owner)} hash="#/production" />);
    const user = userEvent.setup();
    const promote = screen.getByRole('button', { name: 'Promote remote-title' });
    await confirm(user, promote);
    await waitFor(() => expect(promote).toBeDisabled());
    await waitFor(() => expect(screen.getByText('remote-title in production: stable 1.5.0, no canary.')).toHaveFocus());
  });
});

it('shows the reason each change was made in the audit trail, #/audit opening the first environment\'s', async () => {
  const calls = fakeApi((call) =>
    call.path.startsWith('/console/api/environments/production/audit')
      ? { body: { environment: 'production', remote: null, actor: null, actors: ['person:title-owner'], entries: [auditEntry({ reason: 'clean hour at 10 %' })] } }
      : { status: 404, body: { error: 'no such call' } },
  );
  fakeEventSource();
  render(<App boot={bootWith(owner, null)} hash="#/audit" />);
  const table = await screen.findByRole('table', { name: 'Changes in production, newest first' });
  const headers = within(table).getAllByRole('columnheader').map((header) => header.textContent);
  const row = within(table).getAllByRole('row')[1]!;
  expect(within(row).getAllByRole('cell')[headers.indexOf('Why')]).toHaveTextContent('clean hour at 10 %');
  expect(screen.getByRole('combobox', { name: 'Environment' })).toHaveValue('production');
  expect(calls.map((call) => call.path)).not.toContainEqual(expect.stringContaining('/environments/audit/'));
});

describe('an address outside the token', () => {
  it('is said to be outside its scope once, and nothing of it is read, streamed or polled', () => {
    jest.useFakeTimers();
    const calls = fakeApi(() => ({ status: 403, body: { error: 'title-owner may not see production (it needs "status" there).' } }));
    const streams = fakeEventSource();
    const stagingOwner: Session = { ...owner, scope: { ...owner.scope, environments: ['staging'] }, environments: ['staging'] };
    render(<App boot={{ session: stagingOwner, first: null }} hash="#/production" />);
    expect(screen.getByRole('heading', { name: "production is outside your token's scope" })).toBeInTheDocument();
    expect(screen.getAllByText(/outside your token's scope/)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Every remote in staging' })).toHaveAttribute('href', '#/staging');
    const menu = screen.getByRole('combobox', { name: 'Environment' });
    expect(within(menu).getAllByRole('option').map((option) => option.textContent)).toEqual(['Choose one', 'staging']);
    act(() => jest.advanceTimersByTime(60_000));
    expect(screen.queryByText(/Lost the control-plane API/)).not.toBeInTheDocument();
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
    expect(streams).toEqual([]);
  });

  it('refused by the API is said once in place of the view, and not asked again by the clock', async () => {
    jest.useFakeTimers();
    const unknown = 'Unknown remote "remote-nope". Known remotes: remote-auth, remote-browse, remote-title, remote-search.';
    const calls = fakeApi(() => ({ status: 404, body: { error: unknown } }));
    const streams = fakeEventSource();
    render(<App boot={bootWith(owner, null)} hash="#/production/remote/remote-nope" />);
    expect(await screen.findByRole('alert')).toHaveTextContent(unknown);
    act(() => streams[0]!.fail());
    await act(async () => {
      jest.advanceTimersByTime(60_000);
    });
    expect(screen.getAllByText(unknown)).toHaveLength(1);
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
    expect(screen.queryByText(/Lost the control-plane API/)).not.toBeInTheDocument();
    expect(calls.filter((call) => call.path.includes('remote-nope'))).toHaveLength(1);
  });
});
