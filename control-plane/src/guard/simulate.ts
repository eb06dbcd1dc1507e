// Simulated canaries through the guard's real figures and decisions (control-plane/src/health/figures.ts,
// guard.ts assess(), which is decide() without the sentences): sessions arrive one by one in random order, a share of them on the canary, each
// failing at its release's rate and carrying an LCP sample; the guard decides every few seconds
// of simulated time. Seeded, so the same call gives the same figures.
//   node --import tsx control-plane/src/guard/simulate.ts [runs]      prints the rollback rates (default 1000 runs)
import { pathToFileURL } from 'node:url';
import { createFigures, isFailure, type Counted } from '../health/figures.ts';
import { assess, type AssessOptions, type Why } from './guard.ts';
import type { Outcome } from '@netnet/rollout/reports';
import { NETWORK_RULES } from '../health/network.ts';
import { boundaries, enoughEvidence, FAILURE_TEST, REFERENCE_TEST, type FailureOptions, type SessionCounts } from './sequential.ts';

/** A seeded source of floats in [0, 1). */
export type Random = () => number;

/** Every release failing at `rate` for `minutes` from `fromMinute` (minutes after the canary's start, or a [from, to] range to draw it from). */
export interface Incident {
  fromMinute: number | [from: number, to: number];
  minutes: number;
  rate: number;
}

export interface CanaryOptions {
  share: number;
  canaryRate: number;
  stableRate: number;
  maxCanarySessions?: number;
  secondsPerSession?: number;
  tickSeconds?: number;
  lcp?: { median: number; sigma: number; canaryFactor: number };
  incident?: Incident | null;
  stableMinutesBefore?: number;
  /** How many client networks the members come from, each session from one at random (default 100,000). */
  networks?: number;
  /** How many the canary's members come from (default: `networks`). */
  canaryNetworks?: number;
  /** Sessions of a release each network may count per hour (the store's cap), below 256. */
  networkCap?: number;
  /** Draws the sessions' networks, apart from `rng` so the networks change no other draw. */
  networkRng?: Random;
  /** One client network forging canary sessions with this outcome, `perLook` of them before each look of the guard. */
  forger?: { outcome: Outcome; perLook: number } | null;
  guard?: AssessOptions;
}

export interface CanaryResult {
  rolledBack: boolean;
  canarySessions: number;
  reason?: Why;
  seen?: SessionCounts;
  waited: SessionCounts | null;
}

export type SimulateOptions = Omit<CanaryOptions, 'share'> & {
  seed?: number;
  runs?: number;
  minShare?: number;
  maxShare?: number;
  within?: number;
  bands?: number;
};

/** Mulberry32: a small, fast, seeded PRNG (floats in [0, 1)). */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REMOTE = 'remote-title';
const STABLE = '1.0.0';
const CANARY = '1.1.0';
const START = Date.UTC(2025, 0, 6, 9, 0, 0);
const CANARY_FAILURES: Outcome[] = ['fell-back', 'fell-back', 'boundary-error', 'uncaught-error'];
const STABLE_FAILURES: Outcome[] = ['failed', 'boundary-error', 'uncaught-error'];

/**
 * The sessions each network counted of a release in an hour, by network (numbered, the forger
 * after every member): an array per release and hour of a canary, kept from canary to canary. A
 * map of the networks a canary meets (tens of thousands), or new arrays for every canary, cost
 * more than the rest of a session. A count stops at the cap, so a byte holds it.
 */
const sessionCounts: Uint8Array[] = [];

/** sessionCounts[slot], zeroed for a new canary, with room for `networks`. */
function zeroedCounts(slot: number, networks: number): Uint8Array {
  const counts = sessionCounts[slot];
  if (counts && counts.length >= networks) return counts.fill(0, 0, networks);
  return (sessionCounts[slot] = new Uint8Array(networks));
}

/** One of `list`, drawn with `rng`. */
const pick = <T>(rng: Random, list: T[]): T => list[Math.floor(rng() * list.length)] as T;

function lognormal(rng: Random, median: number, sigma: number): number {
  // Box–Muller; 1 - u keeps log() away from 0.
  const z = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  return median * Math.exp(sigma * z);
}

/**
 * One canary from its first session until the guard rolls it back or it has served
 * `maxCanarySessions`. Returns whether and when (canary sessions served) it was rolled back, the
 * canary's counts the guard decided on (`seen`) and those of its last look that waited
 * (`waited`, null if its first look rolled back).
 * `incident`: { fromMinute, minutes, rate }, every release failing at `rate`; `fromMinute` is
 * minutes after the canary's start, or a [from, to] range to draw it from (incidents start at any
 * second, not on the minute the figures are counted in).
 */
export function simulateCanary({
  rng,
  share,
  canaryRate,
  stableRate,
  maxCanarySessions = 1000,
  secondsPerSession = 0.5,
  tickSeconds = 5,
  lcp = { median: 2000, sigma: 0.5, canaryFactor: 1 },
  incident = null,
  stableMinutesBefore = 10,
  networks = 100_000,
  canaryNetworks = networks,
  networkCap = NETWORK_RULES.sessionsPerHour,
  networkRng = mulberry32(0x5bd1e995),
  forger = null,
  guard = {},
}: CanaryOptions & { rng: Random }): CanaryResult {
  const figures = createFigures({ windowMinutes: 60 });
  // Each session from a network, counted only within that network's cap per release and hour.
  if (!(networkCap < 256)) throw new RangeError(`networkCap ${networkCap}: the simulation counts a network's sessions in a byte`);
  const forgerNetwork = Math.max(networks, canaryNetworks);
  const firstHour = Math.floor((START - stableMinutesBefore * 60_000) / NETWORK_RULES.windowMs);
  // By 2 × hours since the first, + 1 on the canary.
  const counted: Uint8Array[] = [];
  const record = (report: Counted, at: number, network = Math.floor(networkRng() * (report.channel === 'canary' ? canaryNetworks : networks))) => {
    const slot = 2 * (Math.floor(at / NETWORK_RULES.windowMs) - firstHour) + (report.release === CANARY ? 1 : 0);
    const counts = (counted[slot] ??= zeroedCounts(slot, forgerNetwork + 1));
    const sessions = counts[network] ?? 0;
    if (sessions >= networkCap) return;
    counts[network] = sessions + 1;
    // The figures keep a session's network only when it failed: no name is made for the others.
    const failed = report.outcome !== undefined && isFailure(report.outcome);
    figures.record([report], at, !failed ? undefined : network === forgerNetwork ? 'forger' : `n${network}`);
  };
  const lcpOf = (onCanary: boolean) => Math.min(60_000, lognormal(rng, lcp.median, lcp.sigma) * (onCanary ? lcp.canaryFactor : 1));
  // The stable served everyone before the canary started: that is in the window too.
  for (let before = START - stableMinutesBefore * 60_000; ; ) {
    before += -Math.log(1 - rng()) * secondsPerSession * 1000;
    if (before >= START) break;
    const outcome = rng() < stableRate ? pick(rng, STABLE_FAILURES) : 'loaded';
    record({ remote: REMOTE, release: STABLE, channel: 'stable', outcome, vitals: { lcp: lcpOf(false) } }, before);
  }
  let during: { fromMinute: number; minutes: number; rate: number } | null = null;
  if (incident) {
    const { fromMinute } = incident;
    during = { ...incident, fromMinute: Array.isArray(fromMinute) ? fromMinute[0] + (fromMinute[1] - fromMinute[0]) * rng() : fromMinute };
  }
  const rollout = { remotes: { [REMOTE]: { stable: STABLE, canary: { version: CANARY, percent: Math.round(share * 100) } } } };
  let at = START;
  let nextTick = START + tickSeconds * 1000;
  let canarySessions = 0;
  let waited: SessionCounts | null = null;
  while (canarySessions < maxCanarySessions) {
    at += -Math.log(1 - rng()) * secondsPerSession * 1000;
    while (at >= nextTick) {
      for (let i = 0; i < (forger?.perLook ?? 0); i += 1) {
        record({ remote: REMOTE, release: CANARY, channel: 'canary', outcome: forger?.outcome }, nextTick - 1, forgerNetwork);
      }
      figures.prune(nextTick);
      const [decision] = assess(figures, rollout, { ...guard, now: nextTick });
      if (!decision) throw new Error('the guard assessed no canary');
      if (decision.action === 'rollback') {
        return { rolledBack: true, canarySessions, reason: decision.why, seen: decision.failure.canary, waited };
      }
      waited = decision.failure.canary;
      nextTick += tickSeconds * 1000;
    }
    const onCanary = rng() < share;
    if (onCanary) canarySessions += 1;
    // An incident (a CDN or network fault) fails every release alike for a while.
    const minutes = (at - START) / 60_000;
    const inIncident = during !== null && minutes >= during.fromMinute && minutes < during.fromMinute + during.minutes;
    const fails = rng() < (during && inIncident ? during.rate : onCanary ? canaryRate : stableRate);
    const failures = onCanary ? CANARY_FAILURES : STABLE_FAILURES;
    const outcome = fails ? pick(rng, failures) : 'loaded';
    const report = {
      remote: REMOTE,
      release: onCanary ? CANARY : STABLE,
      channel: onCanary ? 'canary' : 'stable',
      outcome,
      vitals: { lcp: lcpOf(onCanary) },
    };
    record(report, at);
  }
  return { rolledBack: false, canarySessions, waited };
}

/**
 * `runs` canaries, each at a share drawn uniformly from [minShare, maxShare].
 * Returns the share rolled back, rolled back within `within` canary sessions, per band of share,
 * and `late`: the share rolled back only after a look that waited with at least the floor of
 * failed sessions (FAILURE_TEST.minCanaryFailures) already seen.
 */
export function simulate({ seed = 17, runs = 1000, minShare = 0.1, maxShare = 0.5, within = 200, bands = 4, ...canary }: SimulateOptions) {
  const rng = mulberry32(seed);
  const perBand = Array.from({ length: bands }, (_, index) => ({
    share: [minShare + ((maxShare - minShare) * index) / bands, minShare + ((maxShare - minShare) * (index + 1)) / bands],
    runs: 0,
    rolledBack: 0,
    within: 0,
  }));
  let rolledBack = 0;
  let inTime = 0;
  let byLcp = 0;
  let late = 0;
  const sessionsAtRollback: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const share = minShare + (maxShare - minShare) * rng();
    const result = simulateCanary({ ...canary, share, rng: mulberry32(seed * 1_000_003 + run), networkRng: mulberry32(seed * 1_000_033 + run) });
    const band = perBand[maxShare > minShare ? Math.min(bands - 1, Math.floor(((share - minShare) / (maxShare - minShare)) * bands)) : 0];
    if (!band) throw new Error(`no band for the share ${share}`);
    band.runs += 1;
    if (!result.rolledBack) continue;
    rolledBack += 1;
    band.rolledBack += 1;
    sessionsAtRollback.push(result.canarySessions);
    if (result.reason === 'lcp') byLcp += 1;
    if ((result.waited?.failures ?? 0) >= FAILURE_TEST.minCanaryFailures) late += 1;
    if (result.canarySessions <= within) {
      inTime += 1;
      band.within += 1;
    }
  }
  sessionsAtRollback.sort((a, b) => a - b);
  const at = (q: number) => sessionsAtRollback[Math.min(sessionsAtRollback.length - 1, Math.floor(q * sessionsAtRollback.length))] ?? null;
  return { runs, rolledBack: rolledBack / runs, within: inTime / runs, byLcp: byLcp / runs, late: late / runs, perBand, sessions: { median: at(0.5), p95: at(0.95) } };
}

// The rows of docs/release-health.md's simulation table, each with its seed (offset from `seed`),
// run by control-plane/src/guard/simulate.test.ts as they are printed here.
const SCENARIOS = {
  healthy: { seed: 0, canaryRate: 0.005, stableRate: 0.005, maxCanarySessions: 1000 },
  failing: { seed: 1, canaryRate: 0.05, stableRate: 0.005, maxCanarySessions: 1000 },
  failingAt10: { seed: 2, minShare: 0.1, maxShare: 0.1, bands: 1, canaryRate: 0.05, stableRate: 0.005 },
  slowLcp: { seed: 3, canaryRate: 0.005, stableRate: 0.005, within: 1000, lcp: { median: 2000, sigma: 0.5, canaryFactor: 1.5 } },
  // A 2-minute incident failing every release's loads 20 %: starting on the minute 5 minutes in,
  incident: { seed: 4, canaryRate: 0.005, stableRate: 0.005, incident: { fromMinute: 5, minutes: 2, rate: 0.2 } },
  // at any second 2–3 minutes in, and at any second of the canary's first minute; beside them the
  // same canaries (seed and shares) with no incident, for the rate the incident adds.
  incidentAnySecond: { seed: 5, canaryRate: 0.005, stableRate: 0.005, maxCanarySessions: 400, incident: { fromMinute: [2, 3], minutes: 2, rate: 0.2 } },
  incidentOnYoung: { seed: 6, canaryRate: 0.005, stableRate: 0.005, maxCanarySessions: 400, incident: { fromMinute: [0, 1], minutes: 2, rate: 0.2 } },
  quiet: { seed: 5, canaryRate: 0.005, stableRate: 0.005, maxCanarySessions: 400 },
  // A canary whose page chunk is missing: every session fails; its members from many networks, or from 3.
  broken: { seed: 7, canaryRate: 1, stableRate: 0.005, maxCanarySessions: 100, within: 8 },
  brokenThreeNetworks: { seed: 8, canaryRate: 1, stableRate: 0.005, maxCanarySessions: 100, within: 15, canaryNetworks: 3 },
  // One network forging: failures of a healthy canary, or `loaded` for one failing every session
  // met by members of 3 networks (as many as its cap lets count, before every look of the guard).
  forgedFailures: { seed: 9, canaryRate: 0.005, stableRate: 0.005, maxCanarySessions: 400, forger: { outcome: 'fell-back', perLook: 10 } },
  forgedLoaded: { seed: 10, canaryRate: 1, stableRate: 0.005, maxCanarySessions: 100, within: 15, canaryNetworks: 3, forger: { outcome: 'loaded', perLook: 10 } },
} satisfies Record<string, SimulateOptions & { seed: number }>;

export type ScenarioName = keyof typeof SCENARIOS;

/** One row of the table: `name` a key of SCENARIOS. */
export function scenario(name: ScenarioName, { runs = 1000, seed = 17 }: { runs?: number; seed?: number } = {}) {
  const { seed: offset, ...canary }: SimulateOptions & { seed: number } = SCENARIOS[name];
  return simulate({ ...canary, seed: seed + offset, runs });
}

/** Every row of the table. */
export function scenarios(options: { runs?: number; seed?: number } = {}) {
  const names = Object.keys(SCENARIOS) as ScenarioName[];
  return Object.fromEntries(names.map((name) => [name, scenario(name, options)])) as Record<ScenarioName, ReturnType<typeof simulate>>;
}

/**
 * The best the reference test can do with the guard's whole error budget (α 0.01): the stable's
 * failure rate known exactly, each canary session a Bernoulli trial (p0 = stableRate, p1 = ratio ×
 * stableRate). The
 * exact probability, by dynamic programming over (sessions, failures), that a canary failing at
 * `rate` crosses the rollback boundary within `within` sessions.
 */
export function knownRatePower({
  rate,
  stableRate,
  within = 200,
  ratio = FAILURE_TEST.ratio,
  alpha = FAILURE_TEST.alpha + REFERENCE_TEST.alpha,
  floor = {},
}: {
  rate: number;
  stableRate: number;
  within?: number;
  ratio?: number;
  alpha?: number;
  floor?: FailureOptions;
}): number {
  const { upper } = boundaries({ alpha, beta: FAILURE_TEST.beta });
  const p0 = stableRate;
  const p1 = Math.min(0.999, ratio * stableRate);
  const onFailure = Math.log(p1 / p0);
  const onSuccess = Math.log((1 - p1) / (1 - p0));
  // probability[x]: not crossed yet, x failures so far; 0 beyond `top`. A session adds one
  // failure at most and the counts that cross are zeroed, so a step reads up to `top` and writes
  // up to `top` + 1 rather than going to n: over 10,000 sessions about 150 counts a step instead
  // of up to 10,000. The zeros left out added nothing to `crossed`.
  let probability = new Float64Array([1]);
  let top = 0;
  let crossed = 0;
  for (let n = 1; n <= within; n += 1) {
    const last = Math.min(n, top + 1);
    const next = new Float64Array(last + 1);
    for (let x = 0; x <= top; x += 1) {
      const p = probability[x] ?? 0;
      if (p === 0) continue;
      next[x + 1] = (next[x + 1] ?? 0) + p * rate;
      next[x] = (next[x] ?? 0) + p * (1 - rate);
    }
    for (let x = 0; x <= last; x += 1) {
      if (enoughEvidence({ sessions: n, failures: x }, floor) && x * onFailure + (n - x) * onSuccess >= upper) {
        crossed += next[x] ?? 0;
        next[x] = 0;
      }
    }
    top = last;
    while (top >= 0 && next[top] === 0) top -= 1;
    probability = next;
  }
  return crossed;
}

const percent = (rate: number) => `${(100 * rate).toFixed(1)} %`;

function print(results: ReturnType<typeof scenarios>) {
  const { healthy, failing, failingAt10, incident, incidentAnySecond, incidentOnYoung, quiet, broken, brokenThreeNetworks, forgedFailures, forgedLoaded, slowLcp } = results;
  console.log(`healthy canaries (0.5 % vs 0.5 %, share 10–50 %, up to 1,000 canary sessions each), ${healthy.runs} runs:`);
  console.log(`  rolled back: ${percent(healthy.rolledBack)} (of which on LCP ${percent(healthy.byLcp)})`);
  console.log(`failing canaries (5 % vs 0.5 %, share 10–50 %), ${failing.runs} runs:`);
  console.log(`  rolled back within 200 canary sessions: ${percent(failing.within)}; within 1,000: ${percent(failing.rolledBack)}`);
  console.log(`  canary sessions before the rollback: median ${failing.sessions.median}, 95th percentile ${failing.sessions.p95}`);
  for (const band of failing.perBand) {
    const [low, high] = band.share.map((share) => Math.round(share * 100));
    console.log(`    share ${low}–${high} %: within 200 ${percent(band.within / band.runs)}, within 1,000 ${percent(band.rolledBack / band.runs)} (${band.runs} runs)`);
  }
  console.log(`  at a 10 % share: within 200 ${percent(failingAt10.within)}, within 1,000 ${percent(failingAt10.rolledBack)}`);
  const bestCase = knownRatePower({ rate: 0.05, stableRate: 0.005 });
  const bestFalse = knownRatePower({ rate: 0.005, stableRate: 0.005, within: 10_000 });
  console.log(`  best case, the stable's rate known exactly and all of α on one test: within 200 ${percent(bestCase)} (healthy ones rolled back over 10,000 sessions: ${percent(bestFalse)})`);
  console.log(`healthy canaries through a 2-minute incident failing 20 % of every release's loads, ${incident.runs} runs each: rolled back`);
  console.log(`  starting on the minute 5 min after the canary (1,000 sessions): ${percent(incident.rolledBack)}`);
  console.log(`  starting at any second 2–3 min after the canary (400 sessions): ${percent(incidentAnySecond.rolledBack)}`);
  console.log(`  starting at any second of the canary's first minute (400 sessions): ${percent(incidentOnYoung.rolledBack)}`);
  console.log(`  the same canaries with no incident (400 sessions): ${percent(quiet.rolledBack)}`);
  console.log(`canaries failing every session (share 10–50 %), ${broken.runs} runs: rolled back ${percent(broken.rolledBack)}, ` +
    `at the guard's first look after the ${FAILURE_TEST.minCanaryFailures}th failed session ${percent(broken.rolledBack - broken.late)}`);
  console.log(`  canary sessions before the rollback: median ${broken.sessions.median}, 95th percentile ${broken.sessions.p95}`);
  const three = brokenThreeNetworks;
  console.log(`  its members from 3 networks: rolled back ${percent(three.rolledBack)}, within 15 sessions ${percent(three.within)}; median ${three.sessions.median}, 95th percentile ${three.sessions.p95}`);
  console.log(`one network forging at its cap, ${forgedFailures.runs} runs each:`);
  console.log(`  failures of a healthy canary (400 sessions): rolled back ${percent(forgedFailures.rolledBack)}`);
  console.log(`  loaded for a canary failing every session, its members from 3 networks: rolled back ${percent(forgedLoaded.rolledBack)}, within 15 sessions ${percent(forgedLoaded.within)}; median ${forgedLoaded.sessions.median}, 95th percentile ${forgedLoaded.sessions.p95}`);
  console.log(`slow canaries (same failure rate, LCP ×1.5), ${slowLcp.runs} runs: rolled back within 1,000 sessions ${percent(slowLcp.rolledBack)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number.parseInt(process.argv[2] ?? '1000', 10);
  const started = performance.now();
  print(scenarios({ runs }));
  console.log(`(${Math.round(performance.now() - started)} ms)`);
}
