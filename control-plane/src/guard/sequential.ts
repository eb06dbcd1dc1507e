// The statistics of the guard: is a canary worse than its stable, judged from the sessions both
// served on the same minutes? Two separate tests, each a reason for a rollback on its own.
//
// Failure rate — a sequential probability ratio test (Wald) on the canary's failures conditioned
// on the failures of both releases, minute by minute. Within one minute, if the canary served a
// share s of the sessions and both releases fail at the same rate (H0), each failure of that
// minute is the canary's with probability p0 = s; if the canary fails k times as often (H1),
// with p1 = k·s / (k·s + 1 − s). Conditioning on the minute's failures cancels the stable's
// unknown rate and anything that moves both rates at once (a network incident, a busy hour), and
// summing the log-likelihood ratios over minutes lets the share change (widening) as it goes.
//
//   rollback when   LLR ≥ ln(1/α)              (α = 0.003, see the reference test below)
//   'healthy' when  LLR ≤ ln(β / (1 − α))      (β = 0.05: Wald's lower boundary)
//
// The upper boundary is 1/α rather than Wald's (1 − β)/α, and the test does not stop at the
// lower one: under H0 the likelihood ratio is a non-negative martingale (a supermartingale with
// the exact hypergeometric law of a minute), so by Ville's inequality it ever reaches 1/α with
// probability ≤ α however often the guard looks. The sum runs over the figures' window (60
// minutes): as minutes leave it the test goes on from newer data, so for a canary that lives
// through many windows the bound holds per window rather than once for its whole life.
// k = 6 sits between the regressions that matter: in simulation it catches a canary failing ×10
// nearly as soon as k = 10 would, and one failing ×3 sooner.
//
// What this costs is power at a large share: by its 200th session a canary at 50 % has been
// compared with 200 stable sessions (about one failure at 0.5 %), too little to tell 5 % from
// 0.5 % in most runs. Hence a second failure test, against a reference:
//
// Failure rate against the stable's window — each canary session a Bernoulli trial, H0 failing at
// the stable's rate over the whole window (every minute of it, before the canary started too),
// H1 at k times that rate. It knows the stable's rate from far more sessions than the canary's
// own minutes hold. What it cannot do by itself is tell a canary's fault from an incident that
// fails every release at once, so some minutes are left out of it and judged by the same-minute
// test alone, which an incident cannot fool:
//   - a minute in which the stable failed far beyond its window rate (Poisson tail < `incident`);
//   - a minute in which both releases failed beyond their usual: the stable more than it usually
//     does in a minute (tail < `elevated`) and the canary far beyond its own rate in its other
//     minutes (binomial tail < `burst`). An incident that starts or ends within a minute fails
//     the stable for only part of it, often too few times to stand out alone; a canary that
//     fails as it always has is not left out by this, so a bad canary keeps its evidence;
//   - in the minute not yet over, where the stable may not have failed yet in the first seconds
//     of an incident, either release failing beyond its usual (tails < `partial`).
// Not so for a canary that failed nearly every session it served (`broken`, with at least the
// floor of failures): only the first rule leaves out any of its minutes, the one not yet over
// included. No incident fails a canary that way without failing its stable many times in the same
// seconds, a canary with no history has no usual rate to burst out of, and one whose page chunk is
// missing must go at the guard's next look, not a minute later.
// A canary's usual rate is pulled toward the stable's by `priorSessions`, so a canary with little
// history of its own is expected to fail as its stable does. The rate is estimated, so Ville's
// bound is no longer exact; the two tests share the error budget (α 0.003 + 0.007) and the
// simulation (control-plane/src/guard/simulate.ts) measures what they do together, incidents
// starting at any second included.
//
// The floor under both failure tests — 20 canary sessions, or 8 failed ones — keeps a decision
// off a handful of reports (a member reloading one broken page) while scaling with the evidence:
// a canary failing one session in twenty needs its 20, one failing every session is judged after
// its 8th. 8 is above the sessions one device may count per release and hour
// (control-plane/src/health/ticket.ts), so with that cap applied no single device reaches it.
//
// LCP — a second test of the same form on the window's LCP samples: of the samples above the p75
// of both releases together, how many are the canary's. Under H0 (one distribution) each is the
// canary's with its share of the samples; under H1 the canary lands above that line with
// probability q1 = 0.4 where the stable does with q0 = 0.25 (about a 20 % slower p75 for LCP's
// usual spread), the same likelihood ratio as the failures with k = q1/q0. It only counts as a
// reason when the canary's p75 is also worse than the stable's by more than `worseBy` (20 %): the
// test says the difference is real, the margin that it matters. Its α adds to the failure
// test's in the worst case; in simulation it rolls back no healthy canary.
import { bucketValue, countOf, splitAtQuantile, type Histogram } from '../health/histogram.ts';

/** A stretch of time (a minute of the window) in which both releases served sessions. */
export interface Stratum {
  minute?: number;
  canarySessions: number;
  canaryFailures: number;
  stableSessions: number;
  stableFailures: number;
}

export interface SessionCounts {
  sessions: number;
  failures: number;
}

/** Overrides of a test's settings (numbers, where the frozen defaults have literal types). */
type Overrides<T> = { [K in keyof T]?: number };
export type FailureOptions = Overrides<typeof FAILURE_TEST>;
export type ReferenceOptions = Overrides<typeof REFERENCE_TEST> & { current?: number | undefined };
export type LcpOptions = Overrides<typeof LCP_TEST>;

export interface FailureResult {
  verdict: 'too-few' | 'worse' | 'healthy' | 'undecided';
  llr: number;
  upper: number;
  lower: number;
  ratio: number;
  alpha: number;
  canary: SessionCounts;
  stable: SessionCounts;
}

export interface ReferenceResult {
  verdict: 'worse' | 'undecided';
  llr: number;
  upper: number;
  alpha: number;
  ratio: number;
  rate: number;
  skipped: number;
  failsEverySession: boolean;
  /** The canary's counts over the strata it was given (the reason quotes them). */
  canary: SessionCounts;
  /**
   * The stable served too few sessions in the window (fewer than `priorSessions`) for a rate to
   * compare with (a stable just set, no members' browsers yet): only a canary failing nearly every
   * session is judged then.
   */
  stableUnknown: boolean;
}

export interface LcpResult {
  verdict: 'too-few' | 'worse' | 'not-worse';
  canaryP75: number | null;
  stableP75: number | null;
  samples: { canary: number; stable: number };
  above: number;
  llr: number;
  upper: number;
  worseBy: number;
}

export const FAILURE_TEST = Object.freeze({ alpha: 0.003, beta: 0.05, ratio: 6, minCanarySessions: 20, minCanaryFailures: 8 });
export const REFERENCE_TEST = Object.freeze({
  alpha: 0.007,
  ratio: 6,
  incident: 0.01,
  elevated: 0.5,
  burst: 0.01,
  partial: 0.1,
  broken: 0.8,
  priorSessions: 20,
});
export const LCP_TEST = Object.freeze({ alpha: 0.01, minSamples: 100, worseBy: 0.2, q0: 0.25, q1: 0.4 });

// What the tests merge their options over, at every look of the guard: copies that are not
// frozen and hold every option (`current` too), as V8 spreads a frozen object a few times slower
// and one that gains a property from the options some thirty times slower.
const FAILURE_DEFAULTS = { ...FAILURE_TEST };
const REFERENCE_DEFAULTS = { ...REFERENCE_TEST, current: undefined as number | undefined };
const LCP_DEFAULTS = { ...LCP_TEST };

/** Wald's boundaries on the log-likelihood ratio, with 1/α above (see the top of this file). */
export function boundaries({ alpha, beta }: { alpha: number; beta: number }): { upper: number; lower: number } {
  return { upper: Math.log(1 / alpha), lower: Math.log(beta / (1 - alpha)) };
}

/**
 * The log-likelihood ratio (H1 "canary k× worse" against H0 "same rate") of one stratum: a
 * stretch of time in which the canary served `canarySessions` and the stable `stableSessions`.
 * A stratum where either served nothing says nothing about the ratio: 0.
 */
export function stratumLlr({ canarySessions, canaryFailures, stableSessions, stableFailures }: Stratum, ratio: number): number {
  if (canarySessions <= 0 || stableSessions <= 0 || canaryFailures + stableFailures === 0) return 0;
  const p0 = canarySessions / (canarySessions + stableSessions);
  const p1 = (ratio * p0) / (ratio * p0 + 1 - p0);
  return canaryFailures * Math.log(p1 / p0) + stableFailures * Math.log((1 - p1) / (1 - p0));
}

/** The floor under every failure decision: enough canary sessions (its counts over the window), or enough of them failed. */
export function enoughEvidence({ sessions, failures }: SessionCounts, options: FailureOptions = {}): boolean {
  const { minCanarySessions, minCanaryFailures } = { ...FAILURE_DEFAULTS, ...options };
  return sessions >= minCanarySessions || failures >= minCanaryFailures;
}

/**
 * The failure-rate test over strata (the minutes of the window, in any order).
 * verdict: 'too-few' (under the floor, enoughEvidence()), 'worse' (rollback), 'healthy'
 * (Wald's lower boundary: not k× worse, with error β), or 'undecided'.
 */
export function failureTest(strata: Stratum[], options: FailureOptions = {}): FailureResult {
  const { alpha, beta, ratio } = { ...FAILURE_DEFAULTS, ...options };
  const { upper, lower } = boundaries({ alpha, beta });
  const canary = { sessions: 0, failures: 0 };
  const stable = { sessions: 0, failures: 0 };
  let llr = 0;
  for (const stratum of strata) {
    canary.sessions += stratum.canarySessions;
    canary.failures += stratum.canaryFailures;
    stable.sessions += stratum.stableSessions;
    stable.failures += stratum.stableFailures;
    llr += stratumLlr(stratum, ratio);
  }
  let verdict: FailureResult['verdict'] = 'undecided';
  if (!enoughEvidence(canary, options)) verdict = 'too-few';
  else if (llr >= upper) verdict = 'worse';
  else if (llr <= lower) verdict = 'healthy';
  return { verdict, llr, upper, lower, ratio, alpha, canary, stable };
}

/** P(X ≥ k) for X Poisson with this mean. */
function poissonTail(mean: number, k: number): number {
  if (k <= 0) return 1;
  let term = Math.exp(-mean);
  let below = term;
  for (let i = 1; i < k; i += 1) {
    term *= mean / i;
    below += term;
  }
  return Math.max(0, 1 - below);
}

/** P(X ≥ k) for X binomial with n trials of probability p. */
function binomialTail(n: number, p: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n || p <= 0) return 0;
  if (p >= 1) return 1;
  let term = (1 - p) ** n;
  let below = 0;
  for (let i = 0; i < k; i += 1) {
    below += term;
    term *= ((n - i) / (i + 1)) * (p / (1 - p));
  }
  return Math.max(0, 1 - below);
}

/**
 * P(the canary failing as often as it did in `stratum`, or more) at its usual rate: that of its
 * calm minutes (`usual`, this one left out if it is `calm`), pulled toward the stable's `rate` by
 * `priorSessions` sessions.
 */
function ownTail(stratum: Stratum, calm: boolean, usual: SessionCounts, rate: number, priorSessions: number): number {
  const others = calm ? { sessions: usual.sessions - stratum.canarySessions, failures: usual.failures - stratum.canaryFailures } : usual;
  const own = (others.failures + rate * priorSessions) / (others.sessions + priorSessions);
  return binomialTail(stratum.canarySessions, own, stratum.canaryFailures);
}

function sum(strata: Stratum[]): SessionCounts {
  const total = { sessions: 0, failures: 0 };
  for (const { canarySessions, canaryFailures } of strata) {
    total.sessions += canarySessions;
    total.failures += canaryFailures;
  }
  return total;
}

/** Whether a stratum is the minute not yet over (`current`). */
const isCurrent = (stratum: Stratum, current: number | undefined) => current !== undefined && stratum.minute === current;

/**
 * The failure-rate test against the stable's rate over its whole window (`stable`: its totals),
 * on the same strata as failureTest, each with its `minute`. `current`: the minute not yet over
 * (none: every stratum is whole). verdict: 'worse' (rollback) or 'undecided'; the floor is
 * failureTest's. `skipped`: minutes left out as a possible incident (see the top of this file);
 * `failsEverySession`: the canary failed nearly every session (`broken`), so only a stable
 * failing far beyond its rate left any minute out.
 */
export function referenceTest(strata: Stratum[], stable: SessionCounts, options: ReferenceOptions = {}): ReferenceResult {
  const { alpha, ratio, incident, elevated, burst, partial, broken, priorSessions, current } = { ...REFERENCE_DEFAULTS, ...options };
  const { upper } = boundaries({ alpha, beta: FAILURE_TEST.beta });
  // One failure and one success added: a stable that has not failed yet is not taken as perfect.
  const rate = (stable.failures + 1) / (stable.sessions + 2);
  const h1 = ratio * rate;
  const served = strata.filter((stratum) => stratum.canarySessions > 0);
  const result: ReferenceResult = { verdict: 'undecided', llr: 0, upper, alpha, ratio, rate, skipped: 0, failsEverySession: false, canary: sum(served), stableUnknown: false };
  if (h1 >= 1) {
    // No usual rate to be k× worse than. Where that is for want of stable sessions (a stable just
    // set), a release failing nearly every session (enough of them) is broken whatever its stable
    // does. A stable failing often over many sessions is an outage: nobody is blamed for it.
    result.stableUnknown = stable.sessions < priorSessions;
    result.failsEverySession = result.canary.failures >= FAILURE_TEST.minCanaryFailures && result.canary.failures >= broken * result.canary.sessions;
    if (result.stableUnknown && result.failsEverySession) result.verdict = 'worse';
    return result;
  }
  // Each minute's stable tail is worked out once, for the usual rate and for the verdict: the
  // guard runs this test at every look.
  const stableTails: number[] = [];
  const calm: boolean[] = [];
  // The canary's usual rate: its whole minutes in which the stable did not fail far beyond its own.
  const usual = { sessions: 0, failures: 0 };
  for (const stratum of served) {
    const tail = poissonTail(stratum.stableSessions * rate, stratum.stableFailures);
    const isCalm = !isCurrent(stratum, current) && tail >= incident;
    stableTails.push(tail);
    calm.push(isCalm);
    if (isCalm) {
      usual.sessions += stratum.canarySessions;
      usual.failures += stratum.canaryFailures;
    }
  }
  const { canary } = result;
  result.failsEverySession = canary.failures >= FAILURE_TEST.minCanaryFailures && canary.failures >= broken * canary.sessions;
  const onFailure = Math.log(ratio);
  const onSuccess = Math.log((1 - h1) / (1 - rate));
  for (let index = 0; index < served.length; index += 1) {
    const stratum = served[index]!;
    const tail = stableTails[index]!;
    let leftOut: boolean;
    if (result.failsEverySession) leftOut = tail < incident;
    else if (isCurrent(stratum, current)) leftOut = tail < partial || ownTail(stratum, calm[index]!, usual, rate, priorSessions) < partial;
    else leftOut = tail < incident || (tail < elevated && ownTail(stratum, calm[index]!, usual, rate, priorSessions) < burst);
    if (leftOut) {
      result.skipped += 1;
      continue;
    }
    const successes = stratum.canarySessions - stratum.canaryFailures;
    result.llr += stratum.canaryFailures * onFailure + successes * onSuccess;
  }
  if (result.llr >= upper) result.verdict = 'worse';
  return result;
}

/**
 * The LCP test on two histograms (control-plane/src/health/histogram.ts) over the same window,
 * with how many samples each holds when the caller knows (`samples`: the figures' lcpSamples).
 * verdict: 'too-few' (either has fewer than minSamples), 'worse' (rollback) or 'not-worse'.
 */
export function lcpTest(
  { canary, stable, samples = { canary: countOf(canary), stable: countOf(stable) } }: { canary: Histogram; stable: Histogram; samples?: { canary: number; stable: number } },
  options: LcpOptions = {},
): LcpResult {
  const { alpha, minSamples, worseBy, q0, q1 } = { ...LCP_DEFAULTS, ...options };
  const { upper } = boundaries({ alpha, beta: 0.05 });
  const result: LcpResult = { verdict: 'too-few', canaryP75: null, stableP75: null, samples, above: 0, llr: 0, upper, worseBy };
  if (samples.canary < minSamples || samples.stable < minSamples) return result;
  // The line is the p75 of both samples together, not the stable's own: under H0 the two are
  // one sample split at random, so which of the samples above the line are the canary's is a
  // fair draw by sample counts, whatever the noise in either p75. Strictly above its bucket, so
  // ties in the line's bucket count for neither.
  const split = splitAtQuantile(canary, stable, 0.75, samples.canary, samples.stable);
  const canaryP75 = bucketValue(split.aBucket);
  const stableP75 = bucketValue(split.bBucket);
  const llr = stratumLlr(
    { canarySessions: samples.canary, canaryFailures: split.aAbove, stableSessions: samples.stable, stableFailures: split.bAbove },
    q1 / q0,
  );
  const slower = canaryP75 > stableP75 * (1 + worseBy);
  return { ...result, canaryP75, stableP75, above: split.aAbove, llr, verdict: llr >= upper && slower ? 'worse' : 'not-worse' };
}
