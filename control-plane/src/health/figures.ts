// The figures the guard and the status read: per remote × release × channel, per-minute counts of
// sessions and outcomes and an LCP histogram, for the last `windowMinutes` minutes, with running
// totals over that window. Per-minute buckets let the guard compare a canary with its stable
// minute by minute, on the very same stretch of time (control-plane/src/guard/sequential.ts).
//
// A 'fell-back' report is a failure of the release it names, the canary or pinned release that
// failed to load, not of the stable that then served the page: the member saw a page, but the
// release did not work, and a canary that falls back on every load must be rolled back rather
// than stay a canary forever (docs/release-health.md). Every outcome but 'loaded' is a failure.
import { BUCKETS, bucketOf, emptyHistogram, type Histogram } from './histogram.ts';
import { OUTCOMES, type Outcome, type Report, type ReportedChannel as Channel } from '@netnet/rollout/reports';

export const MINUTE_MS = 60_000;
export const minuteOf = (ms: number): number => Math.floor(ms / MINUTE_MS);
export const isFailure = (outcome: Outcome): boolean => outcome !== 'loaded';

export type OutcomeCounts = Record<Outcome, number>;

interface Counts {
  sessions: number;
  failures: number;
  outcomes: OutcomeCounts;
}

/** One minute of one series. `lcp` is sparse (bucket → count): most minutes see few distinct values. */
export interface MinuteCounts extends Counts {
  /** Its key in the series' `minutes`, at hand to those that read the minutes' values alone (faster than their entries). */
  minute: number;
  lcp: Map<number, number>;
  /** The client networks (networkTag() of network.ts) its failures came from, where known, with how many each. */
  failedNetworks: Map<string, number>;
  /** Failures from no known network (recorded without one): each is taken as a network of its own. */
  unattributed: number;
}

/** A client network's failures of a series over the window, and in how many minutes. */
export interface NetworkFailures {
  failures: number;
  minutes: number;
}

/**
 * Totals over the window; `lcp` is a dense histogram. What the guard reads at every look is kept
 * as the minutes change rather than gathered from them each time: `lcpSamples`, the samples `lcp`
 * holds (its countOf()), and where the failures came from, `byNetwork` (the minutes'
 * `failedNetworks` together) and `unattributed`.
 */
export interface Totals extends Counts {
  lcp: Histogram;
  lcpSamples: number;
  byNetwork: Map<string, NetworkFailures>;
  unattributed: number;
}

export interface Series {
  remote: string;
  release: string;
  channel: string;
  minutes: Map<number, MinuteCounts>;
  totals: Totals;
}

/** A minute as toJSON() writes it and load() reads it: outcome counts and [bucket, count] pairs. */
export type MinuteJson = [
  minute: number,
  counts: { outcomes: Partial<Record<string, number>>; lcp: [bucket: number, count: number][]; failedNetworks?: [network: string, failures: number][] },
];

export interface FiguresJson {
  windowMinutes?: number;
  series: { remote: string; release: string; channel: string; minutes: MinuteJson[] }[];
}

/** What the figures count: a report's release, channel, outcome and LCP. */
export type Counted = Pick<Report, 'remote' | 'release' | 'outcome' | 'vitals'> & { channel: Channel | string };

export type Figures = ReturnType<typeof createFigures>;

// Copied rather than built from OUTCOMES each time: every series makes one a minute.
const NO_OUTCOMES = Object.fromEntries(OUTCOMES.map((outcome) => [outcome, 0])) as OutcomeCounts;
const emptyOutcomes = (): OutcomeCounts => ({ ...NO_OUTCOMES });

const emptyMinute = (minute: number): MinuteCounts => ({ minute, sessions: 0, failures: 0, outcomes: emptyOutcomes(), lcp: new Map(), failedNetworks: new Map(), unattributed: 0 });

function addOutcome(counts: Counts, outcome: Outcome, times: number) {
  counts.sessions += times;
  // Most sessions load: counted by the property's name, which V8 adds to several times faster
  // than to a property found by a key in a variable.
  if (!isFailure(outcome)) {
    counts.outcomes.loaded += times;
    return;
  }
  counts.failures += times;
  counts.outcomes[outcome] += times;
}

/**
 * `maxSeries` bounds the keys a client can create with made-up (but well-formed) versions; past
 * it, new series are refused.
 */
export function createFigures({ windowMinutes = 60, maxSeries = 1000 }: { windowMinutes?: number; maxSeries?: number | undefined } = {}) {
  /** Every series. */
  const all = new Set<Series>();
  let oldestKept = -Infinity;

  // Nested maps (remote → release → channel) rather than one joined key: found without building
  // a string for every report.
  const byRemote = new Map<string, Map<string, Map<string, Series>>>();

  function lookup(remote: string, release: string, channel: string): Series | undefined {
    return byRemote.get(remote)?.get(release)?.get(channel);
  }

  function seriesFor(remote: string, release: string, channel: string): Series {
    let series = lookup(remote, release, channel);
    if (!series) {
      series = {
        remote,
        release,
        channel,
        minutes: new Map(),
        totals: { sessions: 0, failures: 0, outcomes: emptyOutcomes(), lcp: emptyHistogram(), lcpSamples: 0, byNetwork: new Map(), unattributed: 0 },
      };
      let releases = byRemote.get(remote);
      if (!releases) byRemote.set(remote, (releases = new Map()));
      let channels = releases.get(release);
      if (!channels) releases.set(release, (channels = new Map()));
      channels.set(channel, series);
      all.add(series);
    }
    return series;
  }

  function forget(series: Series) {
    all.delete(series);
    const releases = byRemote.get(series.remote);
    const channels = releases?.get(series.release);
    if (!releases || !channels) return;
    channels.delete(series.channel);
    if (channels.size === 0) releases.delete(series.release);
    if (releases.size === 0) byRemote.delete(series.remote);
  }

  function minuteFor(series: Series, minute: number): MinuteCounts {
    let counts = series.minutes.get(minute);
    if (!counts) {
      counts = emptyMinute(minute);
      series.minutes.set(minute, counts);
    }
    return counts;
  }

  /** Adds `times` to a bucket of the totals' histogram, and to lcpSamples what the bucket took (its elements are 32-bit). */
  function addToTotals(totals: Totals, bucket: number, times: number) {
    const before = totals.lcp[bucket] ?? 0;
    totals.lcp[bucket] = before + times;
    totals.lcpSamples += (totals.lcp[bucket] ?? 0) - before;
  }

  function addLcp(series: Series, counts: MinuteCounts, bucket: number, times: number) {
    counts.lcp.set(bucket, (counts.lcp.get(bucket) ?? 0) + times);
    addToTotals(series.totals, bucket, times);
  }

  /** Adds failures from a network to a minute and to the totals, which count the minute if the network is new to it. */
  function addNetworkFailures(series: Series, counts: MinuteCounts, network: string, failures: number) {
    const newToMinute = !counts.failedNetworks.has(network);
    counts.failedNetworks.set(network, (counts.failedNetworks.get(network) ?? 0) + failures);
    let total = series.totals.byNetwork.get(network);
    if (!total) series.totals.byNetwork.set(network, (total = { failures: 0, minutes: 0 }));
    total.failures += failures;
    if (newToMinute) total.minutes += 1;
  }

  function addUnattributed(series: Series, counts: MinuteCounts, failures: number) {
    counts.unattributed += failures;
    series.totals.unattributed += failures;
  }

  // The minute of a series the last report was counted in, found again without a lookup: most
  // reports follow one of the same release in the same minute. Forgotten when minutes are dropped.
  let recent: { series: Series; minute: number; counts: MinuteCounts } | null = null;

  function countsFor(remote: string, release: string, channel: string, minute: number): { series: Series; counts: MinuteCounts } {
    if (recent?.minute !== minute || recent.series.remote !== remote || recent.series.release !== release || recent.series.channel !== channel) {
      const series = seriesFor(remote, release, channel);
      recent = { series, minute, counts: minuteFor(series, minute) };
    }
    return recent;
  }

  /** Drops the minutes that left the window ending at `at` (ms), and series left empty. */
  function prune(at: number) {
    const oldest = minuteOf(at) - windowMinutes + 1;
    if (oldest <= oldestKept) return;
    oldestKept = oldest;
    recent = null;
    for (const series of all) {
      for (const [minute, counts] of series.minutes) {
        if (minute >= oldest) continue;
        series.minutes.delete(minute);
        const { totals } = series;
        totals.sessions -= counts.sessions;
        totals.failures -= counts.failures;
        for (const outcome of OUTCOMES) totals.outcomes[outcome] -= counts.outcomes[outcome];
        for (const [bucket, count] of counts.lcp) addToTotals(totals, bucket, -count);
        totals.unattributed -= counts.unattributed;
        for (const [network, failures] of counts.failedNetworks) {
          const total = totals.byNetwork.get(network)!;
          total.failures -= failures;
          total.minutes -= 1;
          if (total.minutes === 0) totals.byNetwork.delete(network);
        }
      }
      if (series.minutes.size === 0) forget(series);
    }
  }

  const newSeries = (reports: Counted[]) =>
    new Set(reports.filter((r) => !lookup(r.remote, r.release, r.channel)).map((r) => `${r.remote} ${r.release} ${r.channel}`)).size;

  return {
    windowMinutes,

    /** Whether recording these reports keeps the figures within `maxSeries`. */
    canRecord: (reports: Counted[]) => all.size + newSeries(reports) <= maxSeries,

    /**
     * Counts valid reports (control-plane/src/health/reports.ts) accepted at `at` (ms, the server's
     * clock), sent from `network` (networkTag() of network.ts) when known.
     */
    record(reports: Counted[], at: number, network?: string) {
      prune(at);
      const minute = minuteOf(at);
      if (minute < oldestKept) return;
      for (const { remote, release, channel, outcome, vitals } of reports) {
        const { series, counts } = countsFor(remote, release, channel, minute);
        // Vitals without an outcome are samples of a session already counted.
        if (outcome !== undefined) {
          addOutcome(counts, outcome, 1);
          addOutcome(series.totals, outcome, 1);
          if (isFailure(outcome)) {
            if (network) addNetworkFailures(series, counts, network, 1);
            else addUnattributed(series, counts, 1);
          }
        }
        if (vitals?.lcp !== undefined) addLcp(series, counts, bucketOf(vitals.lcp), 1);
      }
    },

    prune,

    /**
     * One series, read-only: `minutes` (Map minute → { sessions, failures, outcomes, lcp: Map }) and
     * `totals` over the window ({ sessions, failures, outcomes, lcp: dense histogram }), or undefined.
     */
    series: lookup,

    /** Every series, read-only. */
    list: () => [...all],

    /** Plain JSON of everything in the window: what the store snapshots. */
    toJSON(): FiguresJson & { windowMinutes: number } {
      return {
        windowMinutes,
        series: [...all].map(({ remote, release, channel, minutes }) => ({
          remote,
          release,
          channel,
          minutes: [...minutes].map(([minute, counts]) => [
            minute,
            { outcomes: { ...counts.outcomes }, lcp: [...counts.lcp], ...(counts.failedNetworks.size > 0 && { failedNetworks: [...counts.failedNetworks] }) },
          ]),
        })),
      };
    },

    /** Adds the counts of a toJSON() result (restoring a snapshot into empty figures). */
    load(json: FiguresJson | null | undefined) {
      for (const { remote, release, channel, minutes } of json?.series ?? []) {
        for (const [minute, { outcomes, lcp, failedNetworks = [] }] of minutes) {
          if (minute < oldestKept) continue;
          const series = seriesFor(remote, release, channel);
          const counts = minuteFor(series, minute);
          for (const outcome of OUTCOMES) {
            const times = outcomes[outcome] ?? 0;
            if (times === 0) continue;
            addOutcome(counts, outcome, times);
            addOutcome(series.totals, outcome, times);
            // Counts kept before networks were: every failure its own network.
            if (isFailure(outcome) && failedNetworks.length === 0) addUnattributed(series, counts, times);
          }
          for (const [bucket, count] of lcp) if (bucket >= 0 && bucket < BUCKETS) addLcp(series, counts, bucket, count);
          for (const [network, failures] of failedNetworks) addNetworkFailures(series, counts, network, failures);
        }
      }
    },
  };
}

/** Sessions and failures of a series from minute `from` on (inclusive); zeros for no series. */
export function countsSince(series: Pick<Series, 'minutes'> | undefined, from: number): { sessions: number; failures: number } {
  let sessions = 0;
  let failures = 0;
  for (const [minute, counts] of series?.minutes ?? []) {
    if (minute < from) continue;
    sessions += counts.sessions;
    failures += counts.failures;
  }
  return { sessions, failures };
}

/**
 * A minute's failures with each network counted once: what the guard reads a stable's incident
 * (and its rate) from, so one network cannot make the stable look as if it were failing.
 */
export const failuresByNetwork = (counts: Pick<MinuteCounts, 'failures' | 'failedNetworks' | 'unattributed'>): number =>
  Math.min(counts.failures, counts.failedNetworks.size + counts.unattributed);

/** The network whose failures of a series weigh most in the window: see failureNetworks(). */
export interface HeaviestNetwork {
  network: string;
  failures: number;
  runnerUp: number;
}

/**
 * Where a series' failures in the window came from: how many distinct client networks (`count`;
 * a failure from no known network is taken as a network of its own), and the network whose
 * failures weigh most (`heaviest`), with how many the next heaviest failed (`runnerUp`); null
 * when no failure came with a network (of networks that failed as often, any one). The guard
 * counts the heaviest no higher than the runner-up: no one network outweighs the others.
 */
export function failureNetworks(series: Pick<Series, 'totals'> | undefined): { count: number; heaviest: HeaviestNetwork | null } {
  const byNetwork = series?.totals.byNetwork ?? new Map<string, NetworkFailures>();
  const count = byNetwork.size + (series?.totals.unattributed ?? 0);
  let heaviest: [string, NetworkFailures] | null = null;
  for (const entry of byNetwork) if (!heaviest || entry[1].failures > heaviest[1].failures) heaviest = entry;
  if (!heaviest) return { count, heaviest: null };
  const [network, { failures }] = heaviest;
  let runnerUp = 0;
  for (const [other, total] of byNetwork) if (other !== network && total.failures > runnerUp) runnerUp = total.failures;
  return { count, heaviest: { network, failures, runnerUp } };
}

/** How many distinct client networks a series' failures in the window came from. */
export const failingNetworks = (series: Pick<Series, 'totals'> | undefined): number => failureNetworks(series).count;
