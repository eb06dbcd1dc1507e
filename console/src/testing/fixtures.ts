// What the console's tests show a person: a release owner of remote-title in production, and the
// API's answers about that environment, each a function so a test changes only what it is about.
import type { AuditEntry, Overview, Plan, Preview, RemoteSummary, Session, Totals, Verdict } from '../types';

export const owner: Session = {
  person: 'title-owner',
  actor: 'person:title-owner',
  scope: { remotes: ['remote-title'], environments: ['production'], actions: ['canary', 'promote', 'rollback', 'status'] },
  csrf: 'csrf-token',
  expiresAt: '2026-11-28T12:00:00.000Z',
  environments: ['production'],
};

export const totals = (sessions: number, failures: number): Totals => ({ sessions, failures, fellBack: 0, rate: sessions ? failures / sessions : null, lcpP75: sessions ? 1_800 : null });

/** The guard's verdict with the evidence the API sends; inconclusive on no sessions, as a fresh canary is. */
export const verdict = (over: Partial<Verdict> = {}): Verdict => ({
  action: 'wait',
  why: 'too-few',
  reason: 'too few canary sessions yet (0)',
  conclusion: 'inconclusive',
  evidence: { canary: totals(0, 0), stable: totals(1_200, 6) },
  ...over,
});

export const canaryPlan: Plan = { stable: '1.4.0', canary: { version: '1.5.0', percent: 10 } };

const OUT_OF_SCOPE = 'title-owner covers remote-title only.';

/** A remote as the overview shows it: the owner may act on remote-title only. */
export function summary(remote: string, plan: Plan | null = canaryPlan): RemoteSummary {
  const mine = remote === 'remote-title';
  return {
    remote,
    plan,
    served: { pinnable: plan ? [plan.stable] : [] },
    published: ['1.3.0', '1.4.0', '1.5.0'],
    verdict: plan?.canary ? verdict() : null,
    failureRates: [],
    can: mine ? { canary: null, promote: null, rollback: null } : { canary: OUT_OF_SCOPE, promote: OUT_OF_SCOPE, rollback: OUT_OF_SCOPE },
  };
}

export function overview(remotes: RemoteSummary[] = ['remote-auth', 'remote-browse', 'remote-title', 'remote-search'].map((remote) => summary(remote))): Overview {
  return {
    environment: 'production',
    mapVersion: 12,
    readAt: '2026-11-28T10:00:00.000Z',
    pinPolicy: { production: true, pinRolledBack: false },
    canChangePins: 'title-owner may not pin (allowed: canary, promote, rollback, status).',
    remotes,
  };
}

/** What the API's preview answers for a change of remote-title from `before` to `after`. */
export const preview = (before: Plan | null, after: Plan | null, over: Partial<Preview> = {}): Preview => ({
  before,
  after,
  gate: { passes: true, message: 'the shell provides everything remote-title 1.5.0 needs' },
  refused: null,
  verdict: before?.canary ? verdict() : null,
  ...over,
});

export const auditEntry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: 7,
  mapVersion: 13,
  at: '2026-11-28T10:02:00.000Z',
  actor: 'person:title-owner',
  action: 'canary',
  remote: 'remote-title',
  reason: null,
  plan: { stable: '1.4.0', canary: { version: '1.5.0', percent: 20 } },
  before: canaryPlan,
  ...over,
});
