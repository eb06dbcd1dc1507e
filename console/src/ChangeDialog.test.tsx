import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChangeDialog, type Change } from './ChangeDialog';
import { canaryPlan, preview, verdict } from './testing/fixtures';
import { dialogsOpenAndClose, fakeApi, type Call } from './testing/fakeApi';
import type { Plan, Preview } from './types';

// The confirmation a release owner meets before any change: why they make it (asked every time,
// sent to the API for the audit trail), what it would do, the guard's evidence before a promote,
// and versions rolled back before marked as such.

beforeEach(dialogsOpenAndClose);

const published = ['1.3.0', '1.4.0', '1.5.0'];
const change = (kind: 'canary' | 'promote' | 'rollback', plan: Plan | null = canaryPlan, versions = published): Change => ({ kind, remote: 'remote-title', plan, published: versions });

/** The API: previews from `previewFor`, every change accepted. */
function api(previewFor: (query: URLSearchParams) => Preview = () => preview(canaryPlan, { stable: '1.4.0', canary: { version: '1.5.0', percent: 10 } })): Call[] {
  return fakeApi((call) => {
    if (call.path.includes('/preview?')) return { body: previewFor(new URLSearchParams(call.path.split('?')[1])) };
    if (call.method !== 'GET') return { body: { environment: 'production', mapVersion: 13, remote: 'remote-title', plan: null, warnings: [] } };
    return { status: 404, body: { error: 'no such call' } };
  });
}

function open(what: Change) {
  const onDone = jest.fn();
  render(<ChangeDialog environment="production" change={what} onDone={onDone} />);
  return onDone;
}

describe('a reason', () => {
  it.each([
    ['canary', 'PUT', 'canary', { version: '1.5.0', percent: 10 }],
    ['promote', 'POST', 'promote', {}],
    ['rollback', 'POST', 'rollback', {}],
  ] as const)('is asked for before %s, and sent with it', async (kind, method, path, fields) => {
    const calls = api();
    const onDone = open(change(kind));
    const user = userEvent.setup();
    const confirm = screen.getByRole('button', { name: 'Confirm' });
    const reason = screen.getByRole('textbox', { name: 'Reason' });
    expect(reason).toBeRequired();
    expect(reason).toHaveAccessibleDescription('Required: why you make this change. The audit trail keeps it beside your name.');
    await screen.findByText('What members will get');
    expect(confirm).toBeDisabled();
    // Spaces say nothing.
    await user.click(reason);
    await user.paste('   ');
    expect(confirm).toBeDisabled();
    await user.paste('error rate flat for an hour ');
    expect(confirm).toBeEnabled();
    await user.click(confirm);
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ conflict: false })));
    const sent = calls.find((call) => call.method !== 'GET');
    expect(sent).toEqual({ method, path: `/v1/environments/production/remotes/remote-title/${path}`, body: { ...fields, expected: canaryPlan, reason: 'error rate flat for an hour' } });
  });

  it('is asked for before the pin policy changes too', async () => {
    const calls = api();
    const onDone = open({ kind: 'pins', policy: { production: true, pinRolledBack: false } });
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Releases rolled back may still be pinned' }));
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await user.click(screen.getByRole('textbox', { name: 'Reason' }));
    await user.paste('QA retests the 1.5.0 fix');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls).toEqual([
      {
        method: 'PUT',
        path: '/v1/environments/production/pin-policy',
        body: { production: true, pinRolledBack: true, expected: { production: true, pinRolledBack: false }, reason: 'QA retests the 1.5.0 fix' },
      },
    ]);
  });
});

it('says only what is wrong with a share of 150, and asks the API nothing about it', async () => {
  const calls = api();
  open(change('canary'));
  const user = userEvent.setup();
  await screen.findByText('What members will get');
  const share = screen.getByRole('textbox', { name: 'Share of members (%)' });
  await user.clear(share);
  await user.paste('150');
  expect(share).toBeInvalid();
  expect(share).toHaveAccessibleDescription('Give a whole number from 0 to 100, like 20.');
  expect(screen.queryByText('Checking what this change would do…')).not.toBeInTheDocument();
  expect(screen.queryByText('What members will get')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
  expect(calls.filter((call) => call.path.includes('percent=150'))).toEqual([]);
});

describe('promoting', () => {
  it("shows the guard's state and evidence, and warns while the evidence is inconclusive", async () => {
    api(() => preview(canaryPlan, { stable: '1.5.0', history: ['1.4.0'] }));
    open(change('promote'));
    const dialog = await screen.findByRole('dialog', { name: 'Promote the canary: remote-title in production' });
    expect(await within(dialog).findByRole('heading', { name: "The guard's evidence" })).toBeInTheDocument();
    expect(within(dialog).getByText('Guard: Waiting')).toBeInTheDocument();
    expect(within(dialog).getByText(/too few canary sessions yet \(0\)$/)).toBeInTheDocument();
    expect(within(dialog).getByText(/^Evidence: canary 0 failed of 0 sessions/)).toBeInTheDocument();
    expect(within(dialog).getByText(/the guard's evidence is inconclusive: too few canary sessions yet \(0\)\./)).toHaveTextContent(
      "Warning: the guard's evidence is inconclusive: too few canary sessions yet (0). Promoting now sends every member to remote-title 1.5.0 before the guard could tell whether it fails more than 1.4.0.",
    );
  });

  it('warns of a regression the guard found', async () => {
    const worse = verdict({ action: 'rollback', why: 'failures', reason: 'failure rate: canary 1.5.0 failed 30 of 300 sessions', conclusion: 'regression' });
    api(() => preview(canaryPlan, { stable: '1.5.0' }, { verdict: worse }));
    open(change('promote'));
    expect(await screen.findByText(/^Warning:/)).toHaveTextContent(
      'Warning: the guard finds remote-title 1.5.0 worse than 1.4.0 (failure rate: canary 1.5.0 failed 30 of 300 sessions). Promoting sends every member to it.',
    );
  });

  it('gives no warning once the guard found the canary healthy', async () => {
    const healthy = verdict({ why: 'collecting', reason: 'failure-rate SPRT -3.10 (rollback at 5.81, healthy at -2.94) after 900 canary sessions', conclusion: 'healthy' });
    api(() => preview(canaryPlan, { stable: '1.5.0' }, { verdict: healthy }));
    open(change('promote'));
    expect(await screen.findByText(/after 900 canary sessions$/)).toBeInTheDocument();
    expect(screen.queryByText(/^Warning:/)).not.toBeInTheDocument();
  });
});

describe('a version rolled back before', () => {
  const rolledBack: Plan = { stable: '1.4.0', rolledBack: ['1.5.0'] };
  const versions = ['1.3.0', '1.4.0', '1.5.0', '1.6.0'];
  const answer = (query: URLSearchParams) =>
    preview(rolledBack, { ...rolledBack, canary: { version: query.get('version')!, percent: 10 } }, { gate: { passes: true, message: `the shell provides everything remote-title ${query.get('version')} needs` } });

  it('is marked as such in the versions offered, and not the one chosen first', async () => {
    api(answer);
    open(change('canary', rolledBack, versions));
    const version = screen.getByRole('combobox', { name: 'Version' });
    expect(within(version).getAllByRole('option').map((option) => option.textContent)).toEqual(['1.3.0', '1.5.0 (rolled back)', '1.6.0']);
    expect(version).toHaveValue('1.6.0');
    expect(await screen.findByText(/^Passes: the shell provides everything remote-title 1\.6\.0 needs/)).toBeInTheDocument();
    expect(screen.queryByText(/rolled back/, { selector: 'p' })).not.toBeInTheDocument();
  });

  it('chosen, is warned about, and never said to pass', async () => {
    api(answer);
    open(change('canary', rolledBack, versions));
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Version' }), '1.5.0');
    expect(await screen.findByText(/^Compatible, but rolled back: the shell provides everything remote-title 1\.5\.0 needs/)).toBeInTheDocument();
    expect(screen.getByText(/was rolled back/)).toHaveTextContent(
      'Warning: remote-title 1.5.0 was rolled back: it was taken back from members before. Setting it as the canary again sends members to it and takes it off the rolled-back list.',
    );
    expect(screen.queryByText(/^Passes:/)).not.toBeInTheDocument();
  });
});
