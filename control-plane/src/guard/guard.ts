// The guard: every few seconds, each canary against its stable on the figures' window
// (control-plane/src/guard/sequential.ts: failures minute by minute, failures against the stable's rate
// over the window, LCP p75); a canary worse on any of them is rolled back, a healthy
// one optionally widened through stages (by a guard with the CLI's rights: a shell instance's role
// may only roll back, through the store's own fenced function), with the verdict in the audit
// trail and the reason also kept in the map's `guardHistory`. However many guards run (one in
// every instance of the shell's server), only the holder of the environment's lease acts, and each
// of its writes checks the lease's fence in the same statement (control-plane/src/store/lease.ts).
//
// The per-remote `history` of the map is a list of versions that the map's validator
// (control-plane/src/store/rollouts.ts) and the CLI read as earlier stables; the guard's entries, with
// their reasons, go in a list of their own at the top of the map, which every rollout command
// carries over untouched.
import { hostname } from 'node:os';
import { setCanary } from '../rollouts/commands.ts';
import type { Store } from '../store/database.ts';
import { pruneHealth, readFigures, readSessionNetworks } from '../health/counts.ts';
import { acquireLease, releaseLease } from '../store/lease.ts';
import { listReleases, type Releases } from '../store/releases.ts';
import { Conflict, guardRollback, LeaseLost, readRollout, updateRollout, type Canary, type GuardHistoryEntry, type Rollout } from '../store/rollouts.ts';
import { countsSince, failureNetworks, failuresByNetwork, minuteOf, type Figures, type Series } from '../health/figures.ts';
import { NETWORK_RULES } from '../health/network.ts';
import { emptyHistogram } from '../health/histogram.ts';
import {
  failureTest,
  lcpTest,
  referenceTest,
  type FailureOptions,
  type FailureResult,
  type LcpOptions,
  type LcpResult,
  type ReferenceOptions,
  type ReferenceResult,
  type Stratum,
} from './sequential.ts';

/** What assess() reads of the figures. */
export type GuardFigures = Pick<Figures, 'series' | 'windowMinutes'>;

/** When a remote's canary reached its current percent (ms). */
export interface StageStart {
  version: string;
  percent: number;
  at: number;
}

export interface AssessOptions {
  /** Percents to widen through, e.g. [10, 25, 50, 100]; none: never widen. */
  stages?: number[];
  /** Canary sessions a stage needs before it is widened. */
  minStageSessions?: number;
  /** When each remote's canary reached its current percent; unknown: no widening. */
  stageStarts?: Record<string, StageStart>;
  /** ms: the minute it falls in is not whole yet. */
  now?: number;
  /** A rollback on failures needs failed sessions from this many client networks (NETWORK_RULES). */
  minFailingNetworks?: number;
  /** How many networks sent each release's sessions lately (key `remote release channel`), for the evidence shown. */
  sessionNetworks?: ReadonlyMap<string, number>;
  /** Overrides of FAILURE_TEST, REFERENCE_TEST and LCP_TEST. */
  failure?: FailureOptions;
  reference?: ReferenceOptions;
  lcp?: LcpOptions;
}

export type Why = 'failures' | 'failure-reference' | 'lcp' | 'too-few' | 'few-networks' | 'last-stage' | 'collecting' | 'stage-unknown' | 'stage-short' | 'leaning-worse' | 'healthy';

/** What a canary's figures come from: its sessions and failures in the window, and from how many client networks. */
export interface Evidence {
  sessions: number;
  failures: number;
  /** Distinct networks its failures came from (the rule: at least `minFailingNetworks`). */
  failingNetworks: number;
  /** The failures of the network that sent the most, and as many as the failure tests count of them (the next network's). */
  heaviestNetworkFailures: number;
  heaviestNetworkCounted: number;
  minFailingNetworks: number;
  /** Distinct networks that sent its sessions this hour and the last (null: not known here). */
  sessionNetworks: number | null;
}

/** What the guard would do about one canary, and the tests that decided it. */
export interface Assessment {
  remote: string;
  stable: string;
  canary: Canary;
  evidence: Evidence;
  failure: FailureResult;
  reference: ReferenceResult;
  lcp: LcpResult;
  windowMinutes: number;
  minStageSessions: number;
  action: 'rollback' | 'widen' | 'wait';
  why: Why;
  to?: number;
  stageSessions?: number;
}

export interface Decision extends Assessment {
  reason: string;
}

/** Kept by the caller between passes. */
export interface GuardState {
  stageStarts?: Record<string, StageStart>;
  prunedAt?: number;
}

export const GUARD_DEFAULTS = Object.freeze({ minStageSessions: 200, intervalMs: 5_000, keepHistory: 50 });

/** A name for this guard in the lease and the audit trail: host and process. */
export const guardName = () => `${hostname()}:${process.pid}`;

const percentOf = (failures: number, sessions: number) => (sessions ? `${((100 * failures) / sessions).toFixed(2)}%` : '–');
const round = (value: number) => value.toFixed(2);

/** The minutes in which the canary served sessions, each with the stable's counts of that minute. */
function strata(canarySeries: Series | undefined, stableSeries: Series | undefined): Stratum[] {
  const list: Stratum[] = [];
  for (const canary of canarySeries?.minutes.values() ?? []) {
    const { minute } = canary;
    const stable = stableSeries?.minutes.get(minute);
    list.push({
      minute,
      canarySessions: canary.sessions,
      canaryFailures: canary.failures,
      stableSessions: stable?.sessions ?? 0,
      // Each network once a minute: failures one network makes the stable report cannot pass
      // for an incident, nor make the canary look better than its stable.
      stableFailures: stable ? failuresByNetwork(stable) : 0,
    });
  }
  return list;
}

/** The strata with `excess` of the failing sessions `network` sent (those of the series' latest minutes first) taken out, as if it had not sent them. */
function withoutFailures(strata: Stratum[], series: Series | undefined, network: string, excess: number): Stratum[] {
  // Nothing to take out (no network outweighs the next): the very strata, so that assess() knows
  // it need not test them twice.
  if (excess === 0) return strata;
  let left = excess;
  const latestFirst = strata.map((_, index) => index).sort((a, b) => (strata[b]!.minute ?? 0) - (strata[a]!.minute ?? 0));
  const out = [...strata];
  for (const index of latestFirst) {
    const stratum = strata[index]!;
    const taken = Math.min(left, series?.minutes.get(stratum.minute ?? NaN)?.failedNetworks.get(network) ?? 0);
    left -= taken;
    if (taken) out[index] = { ...stratum, canarySessions: stratum.canarySessions - taken, canaryFailures: stratum.canaryFailures - taken };
  }
  return out;
}

/** The stable's sessions and failures over the window, each network's failures once a minute (as strata()). */
function stableTotals(series: Series | undefined): { sessions: number; failures: number } {
  let sessions = 0;
  let failures = 0;
  for (const counts of series?.minutes.values() ?? []) {
    sessions += counts.sessions;
    failures += failuresByNetwork(counts);
  }
  return { sessions, failures };
}

/** "from N networks" and, when known, the networks its sessions came from. */
function networksPart({ failingNetworks: failing, sessionNetworks }: Evidence) {
  return `failures from ${failing} network${failing === 1 ? '' : 's'}${sessionNetworks === null ? '' : `, sessions from ${sessionNetworks}`}`;
}

function failureReason(decision: Assessment) {
  const { failure: test, canary, stable, windowMinutes } = decision;
  const { canary: c, stable: s } = test;
  return (
    `failure rate: canary ${canary.version} failed ${c.failures} of ${c.sessions} sessions (${percentOf(c.failures, c.sessions)}), ` +
    `stable ${stable} ${s.failures} of ${s.sessions} (${percentOf(s.failures, s.sessions)}) in the last ${windowMinutes} min; ` +
    `SPRT log-likelihood ratio ${round(test.llr)} ≥ ${round(test.upper)} (α ${test.alpha}, H1 canary ×${test.ratio} worse); ${networksPart(decision.evidence)}`
  );
}

function referenceReason(decision: Assessment) {
  const { reference: test, canary, stable, windowMinutes } = decision;
  // The counts this test judged: all of them for a canary failing every session, not those left
  // after the heaviest network's excess (the failure test's).
  const { canary: c } = test;
  const skipped = test.skipped ? `; ${test.skipped} min left out as a possible incident` : '';
  if (test.stableUnknown) {
    return (
      `failure rate: canary ${canary.version} failed ${c.failures} of ${c.sessions} sessions (${percentOf(c.failures, c.sessions)}): nearly every one, ` +
      `while stable ${stable} served too few sessions over the last ${windowMinutes} min to compare with; ${networksPart(decision.evidence)}`
    );
  }
  return (
    `failure rate: canary ${canary.version} failed ${c.failures} of ${c.sessions} sessions (${percentOf(c.failures, c.sessions)}) ` +
    `against stable ${stable}'s ${(100 * test.rate).toFixed(2)}% over the last ${windowMinutes} min; ` +
    `SPRT log-likelihood ratio ${round(test.llr)} ≥ ${round(test.upper)} (α ${test.alpha}, H1 canary ×${test.ratio} worse${skipped}); ${networksPart(decision.evidence)}`
  );
}

function lcpReason({ lcp: test, canary, stable }: Assessment) {
  // A test that found the canary worse has both p75s.
  const canaryP75 = test.canaryP75 ?? NaN;
  const stableP75 = test.stableP75 ?? NaN;
  const worse = Math.round((100 * (canaryP75 - stableP75)) / stableP75);
  return (
    `LCP p75: canary ${canary.version} ${test.canaryP75} ms, stable ${stable} ${test.stableP75} ms (+${worse}%, limit +${Math.round(100 * test.worseBy)}%) ` +
    `over ${test.samples.canary} and ${test.samples.stable} samples; ${test.above} canary samples above the p75 of both, ` +
    `SPRT log-likelihood ratio ${round(test.llr)} ≥ ${round(test.upper)}`
  );
}

function waitReason({ failure: test, why, canary, stageSessions, minStageSessions, evidence }: Assessment) {
  const { canary: c } = test;
  const state =
    test.verdict === 'too-few'
      ? `too few canary sessions yet (${c.sessions})`
      : `failure-rate SPRT ${round(test.llr)} (rollback at ${round(test.upper)}, healthy at ${round(test.lower)}) after ${c.sessions} canary sessions`;
  if (why === 'few-networks') {
    return `${state}; the failures point to a rollback, but come from ${evidence.failingNetworks} client network${evidence.failingNetworks === 1 ? '' : 's'} (a rollback needs ${evidence.minFailingNetworks})`;
  }
  if (why === 'stage-unknown') return `${state}; the start of the ${canary.percent}% stage is not known yet`;
  if (why === 'stage-short' || why === 'leaning-worse') return `${state}; ${stageSessions} of ${minStageSessions} sessions at ${canary.percent}%`;
  return state;
}

function widenReason({ failure, lcp, canary, stageSessions, minStageSessions, to }: Assessment) {
  const lcpPart = lcp.verdict === 'too-few' ? 'too few LCP samples to compare' : `LCP p75 ${lcp.canaryP75} ms vs ${lcp.stableP75} ms`;
  return (
    `healthy at ${canary.percent}%: ${stageSessions} sessions at this stage (min ${minStageSessions}), ` +
    `failures ${failure.canary.failures} of ${failure.canary.sessions} vs stable ${failure.stable.failures} of ${failure.stable.sessions}, ` +
    `SPRT ${round(failure.llr)} ≤ 0, ${lcpPart}; widened to ${to}%`
  );
}

/** The sentence a decision of assess() is written down with (rollout history, logs, status). */
export function explain(decision: Assessment): string {
  if (decision.why === 'failures') return failureReason(decision);
  if (decision.why === 'failure-reference') return referenceReason(decision);
  if (decision.why === 'lcp') return lcpReason(decision);
  if (decision.action === 'widen') return widenReason(decision);
  return waitReason(decision);
}

/**
 * What the guard would do now, per remote with a canary, without the sentences (decide() adds
 * them): `why` says which rule decided. Pure: reads the figures (already pruned to the window
 * ending now) and the rollout, changes neither.
 *
 * `figures`: createFigures() (control-plane/src/health/figures.ts) or anything with its `series`
 * and `windowMinutes`; `rollout`: a rollout map (control-plane/src/store/rollouts.ts), or null.
 */
export function assess(figures: GuardFigures, rollout: Rollout | null, options: AssessOptions = {}): Assessment[] {
  const {
    stages = [],
    minStageSessions = GUARD_DEFAULTS.minStageSessions,
    stageStarts = {},
    now = Date.now(),
    minFailingNetworks = NETWORK_RULES.minFailingNetworks,
    sessionNetworks,
  } = options;
  const decisions: Assessment[] = [];
  for (const [remote, plan] of Object.entries(rollout?.remotes ?? {})) {
    if (!plan.canary) continue;
    const canarySeries = figures.series(remote, plan.canary.version, 'canary');
    const stableSeries = figures.series(remote, plan.stable, 'stable');
    const all = strata(canarySeries, stableSeries);
    // No one network outweighs the others: the failure tests count the network that sent the most
    // failures no higher than the next one, so what one party reports (at its cap) cannot tip a
    // healthy canary over, while failures spread over members' networks (one each) all count.
    const { count: failingNetworks, heaviest } = failureNetworks(canarySeries);
    const minutes = heaviest ? withoutFailures(all, canarySeries, heaviest.network, heaviest.failures - heaviest.runnerUp) : all;
    const failure = failureTest(minutes, options.failure);
    // The minute not yet over is judged more warily: in the first seconds of an incident the
    // stable may not have failed yet where the canary has.
    const referenceOptions = { ...options.reference, current: minuteOf(now) };
    const stableCounts = stableTotals(stableSeries);
    const whole = referenceTest(all, stableCounts, referenceOptions);
    // A canary failing nearly every session from enough networks is judged on all of them: no
    // forger makes a canary fail every session, and one whose page chunk is missing must go now.
    // Strata with nothing taken out are judged as they were.
    const reference = whole.failsEverySession || minutes === all ? whole : referenceTest(minutes, stableCounts, referenceOptions);
    const lcp = lcpTest(
      {
        canary: canarySeries?.totals.lcp ?? emptyHistogram(),
        stable: stableSeries?.totals.lcp ?? emptyHistogram(),
        samples: { canary: canarySeries?.totals.lcpSamples ?? 0, stable: stableSeries?.totals.lcpSamples ?? 0 },
      },
      options.lcp,
    );
    const evidence: Evidence = {
      sessions: canarySeries?.totals.sessions ?? 0,
      failures: canarySeries?.totals.failures ?? 0,
      failingNetworks,
      heaviestNetworkFailures: heaviest?.failures ?? 0,
      heaviestNetworkCounted: heaviest?.runnerUp ?? 0,
      minFailingNetworks,
      sessionNetworks: sessionNetworks?.get(`${remote} ${plan.canary.version} canary`) ?? null,
    };
    const tests = { remote, stable: plan.stable, canary: { ...plan.canary }, evidence, failure, reference, lcp, windowMinutes: figures.windowMinutes, minStageSessions };
    const enough = failure.verdict !== 'too-few' || whole.failsEverySession;
    // Failures from fewer networks than the rule are what one party can make: no rollback on them.
    const broad = evidence.failingNetworks >= minFailingNetworks;
    const failing = failure.verdict === 'worse' || (enough && reference.verdict === 'worse');
    let verdict: Verdict;
    if (failing && !broad) verdict = { action: 'wait', why: 'few-networks' };
    else if (failure.verdict === 'worse') verdict = { action: 'rollback', why: 'failures' };
    else if (enough && reference.verdict === 'worse') verdict = { action: 'rollback', why: 'failure-reference' };
    else if (lcp.verdict === 'worse') verdict = { action: 'rollback', why: 'lcp' };
    else verdict = widening(tests, canarySeries, { stages, minStageSessions, start: stageStarts[remote] });
    // The verdict added to the tests' object rather than both spread into a new one, which V8 makes
    // some thirty times slower (the simulation of control-plane/src/guard/simulate.ts assesses millions).
    decisions.push(Object.assign(tests, verdict));
  }
  return decisions;
}

/** assess() with each decision's reason: the test and the figures that decided it. */
export const decide = (figures: GuardFigures, rollout: Rollout | null, options: AssessOptions = {}): Decision[] =>
  assess(figures, rollout, options).map((decision) => ({ ...decision, reason: explain(decision) }));

// A stage is widened on "no evidence of harm": enough sessions at this percent and a failure
// ratio that leans to "same rate" (both failure tests' LLR ≤ 0), not only on Wald's lower boundary, which two
// releases that never fail would never reach. The rollback test keeps running at the next stage.
type Verdict = Pick<Assessment, 'action' | 'why' | 'to' | 'stageSessions'>;

function widening(
  { canary, failure, reference }: Pick<Assessment, 'canary' | 'failure' | 'reference'>,
  canarySeries: Series | undefined,
  { stages, minStageSessions, start }: { stages: number[]; minStageSessions: number; start: StageStart | undefined },
): Verdict {
  const next = stages.filter((stage) => stage > canary.percent).sort((a, b) => a - b)[0];
  if (failure.verdict === 'too-few') return { action: 'wait', why: 'too-few' };
  if (next === undefined) return { action: 'wait', why: stages.length ? 'last-stage' : 'collecting' };
  if (!start || start.version !== canary.version || start.percent !== canary.percent) return { action: 'wait', why: 'stage-unknown' };
  // From the first whole minute at this percent: the minute of the change also holds sessions before it.
  const stageSessions = countsSince(canarySeries, minuteOf(start.at) + 1).sessions;
  if (stageSessions < minStageSessions) return { action: 'wait', why: 'stage-short', stageSessions };
  if (failure.llr > 0 || reference.llr > 0) return { action: 'wait', why: 'leaning-worse', stageSessions };
  return { action: 'widen', why: 'healthy', to: next, stageSessions };
}

/** Thrown inside the rollout lock when the canary changed since the decision: nothing is written. */
class Outdated extends Error {}

function sameCanary(plan: Rollout['remotes'][string] | undefined, decision: Decision) {
  return plan?.stable === decision.stable && plan.canary?.version === decision.canary.version && plan.canary.percent === decision.canary.percent;
}

/** The map with the canary widened as decided (a rollback is the store's: store/rollouts.ts guardRollback). */
function widen(latest: Rollout | null, decision: Decision, { at, releases, keepHistory }: { at: number; releases: Releases; keepHistory: number }): Rollout {
  const plan = latest?.remotes[decision.remote];
  // A release owner may have moved this canary while the guard was deciding: their move stands.
  if (!latest || !sameCanary(plan, decision)) throw new Outdated();
  const next = setCanary(latest, decision.remote, decision.canary.version, decision.to ?? decision.canary.percent, releases);
  const entry: GuardHistoryEntry = {
    at: new Date(at).toISOString(),
    remote: decision.remote,
    action: decision.action,
    version: decision.canary.version,
    stable: decision.stable,
    from: decision.canary.percent,
    to: decision.to,
    reason: decision.reason,
  };
  next.guardHistory = [...(latest.guardHistory ?? []), entry].slice(-keepHistory);
  return next;
}

/** When each canary reached its percent: kept across passes in `state`, else from the guard's own history, else now. */
function trackStages(rollout: Rollout, state: GuardState, now: number): Record<string, StageStart> {
  const starts = (state.stageStarts ??= {});
  for (const [remote, plan] of Object.entries(rollout?.remotes ?? {})) {
    const canary = plan.canary;
    if (!canary) {
      delete starts[remote];
      continue;
    }
    const known = starts[remote];
    if (known && known.version === canary.version && known.percent === canary.percent) continue;
    const widened = [...(rollout.guardHistory ?? [])]
      .reverse()
      .find((entry) => entry.remote === remote && entry.action === 'widen' && entry.version === canary.version && entry.to === canary.percent);
    const at = widened ? Date.parse(widened.at) : NaN;
    starts[remote] = { version: canary.version, percent: canary.percent, at: Number.isFinite(at) && at <= now ? at : now };
  }
  return starts;
}

export interface GuardOptions extends Omit<AssessOptions, 'stageStarts' | 'now'> {
  /** The store (a pg Pool). */
  db: Store;
  environment: string;
  /** This guard's name in the lease (guardName()). */
  holder?: string;
  /** How long the lease lasts unrenewed (3 passes by default). */
  leaseMs?: number;
  /** Figures to judge on (tests); by default the store's, from every instance. */
  figures?: Pick<Figures, 'series' | 'windowMinutes' | 'prune'>;
  /** ms; Date.now() by default. */
  now?: number;
  /** Kept by the caller between passes (when stages started). */
  state?: GuardState;
  /** Told of every change written. */
  log?: (line: string) => void;
  intervalMs?: number;
  keepHistory?: number;
}

/**
 * One pass of the guard over an environment: take or renew the lease (none: another guard acts,
 * this one waits), decide, then write each rollback (the store's fenced function) or widening (a
 * fenced compare-and-set), re-checked against the map as it is then. The entry point `npm start` and `npm run rollout --
 * guard` call (every GUARD_DEFAULTS.intervalMs, keeping `state` between passes).
 */
export async function runGuard({
  db,
  environment,
  holder = guardName(),
  leaseMs,
  figures,
  now = Date.now(),
  state = {},
  log = () => {},
  ...options
}: GuardOptions): Promise<{ leader: boolean; decisions: Decision[]; applied: Decision[] }> {
  const lease = await acquireLease(db, environment, holder, leaseMs ?? 3 * (options.intervalMs ?? GUARD_DEFAULTS.intervalMs));
  if (!lease) return { leader: false, decisions: [], applied: [] };
  // The lease holder also drops counts older than a day, at most once an hour: no other process
  // owns the table's size.
  if (!((state.prunedAt ?? NaN) > now - 60 * 60_000)) {
    await pruneHealth(db, { now });
    state.prunedAt = now;
  }
  const { rollout } = await readRollout(db, environment);
  if (!rollout) return { leader: true, decisions: [], applied: [] };
  const current = figures ?? (await readFigures(db, environment, { now }));
  current.prune(now);
  const sessionNetworks = options.sessionNetworks ?? (await readSessionNetworks(db, environment, { now }));
  const stageStarts = trackStages(rollout, state, now);
  const decisions = decide(current, rollout, { ...options, sessionNetworks, stageStarts, now });
  const applied: Decision[] = [];
  const keepHistory = options.keepHistory ?? GUARD_DEFAULTS.keepHistory;
  // What a rollback or a widening may point at: the releases the store lists (read only when
  // there is something to write).
  let releases: Releases | undefined;
  for (const decision of decisions) {
    if (decision.action === 'wait') continue;
    try {
      if (decision.action === 'rollback') {
        // The store's own rollback, the one map write a shell instance may make
        // (store/rollouts.ts guardRollback); first the map as it is now, so a canary a release
        // owner moved meanwhile is left to them without asking the store to refuse it.
        const { rollout: latest } = await readRollout(db, environment);
        if (!sameCanary(latest?.remotes[decision.remote], decision)) continue;
        const { remote, stable, canary, reason } = decision;
        await guardRollback(db, environment, { lease, remote, stable, canary, at: new Date(now).toISOString(), reason, keepHistory });
      } else {
        // Widening is a rollout command's write: the CLI's guard job may, an instance may not.
        releases ??= await listReleases(db);
        const published = releases;
        await updateRollout(db, environment, (latest) => widen(latest, decision, { at: now, releases: published, keepHistory }), {
          actor: `guard@${holder}`,
          action: decision.action,
          remote: decision.remote,
          reason: decision.reason,
          lease,
        });
      }
    } catch (error) {
      // A release owner moved this canary meanwhile: their move stands.
      if (error instanceof Outdated || error instanceof Conflict) continue;
      if (error instanceof LeaseLost) break;
      throw error;
    }
    applied.push(decision);
    if (decision.action === 'widen') stageStarts[decision.remote] = { version: decision.canary.version, percent: decision.to ?? decision.canary.percent, at: now };
    else delete stageStarts[decision.remote];
    log(`${environment}: ${decision.action} ${decision.remote} ${decision.canary.version} — ${decision.reason}`);
  }
  return { leader: true, decisions, applied };
}

/**
 * runGuard every `intervalMs`, one pass at a time; returns stop(), which also gives the lease up.
 * A pass that fails (the store away) pauses the guard: `onPause` hears why once, `onResume` when
 * a pass succeeds again; nothing is decided meanwhile — no data is never a pass.
 */
export function startGuard({
  intervalMs = GUARD_DEFAULTS.intervalMs,
  onError = (error) => console.error(error),
  onPause = onError,
  onResume = () => {},
  ...options
}: GuardOptions & {
  onError?: (error: unknown) => void;
  onPause?: (error: unknown) => void;
  onResume?: () => void;
}): () => Promise<void> {
  const state = options.state ?? {};
  const holder = options.holder ?? guardName();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let paused = false;
  const pass = async () => {
    try {
      await runGuard({ ...options, holder, intervalMs, state });
      if (paused) onResume();
      paused = false;
    } catch (error) {
      if (!paused) onPause(error);
      paused = true;
    }
    if (!stopped) timer = setTimeout(pass, intervalMs);
  };
  timer = setTimeout(pass, intervalMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
    return releaseLease(options.db, options.environment, holder).catch(() => {});
  };
}
