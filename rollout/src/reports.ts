// The release-health report, one format for both ends (docs/release-health.md): what a page tells
// the site's server about the releases it used, and what the collector takes. Per release, the
// channel it came from and how it went (a report with an `outcome` is one session), and the page's
// web vitals as samples. A report holds these fields and nothing else, so none can carry a member
// id, an email or a URL. The browser never queues or sends what the collector refuses.

/** Per POST: over a limit the batch is refused whole. */
export const REPORT_LIMITS = Object.freeze({
  maxReports: 50,
  maxBodyBytes: 16_384,
  // A longer version names no release anyone publishes; it would only grow the figures' keys.
  maxVersionLength: 64,
  // A longer ticket is none the server issued (control-plane/src/health/ticket.ts).
  maxTicketLength: 2_048,
});

/** What a browser can measure; beyond these the number is a bug or a forgery, not a page. */
export const VITAL_BOUNDS = Object.freeze({
  lcp: [0, 60_000],
  inp: [0, 60_000],
  cls: [0, 10],
} as const satisfies Record<string, readonly [low: number, high: number]>);

export type Vital = keyof typeof VITAL_BOUNDS;
export type Vitals = Partial<Record<Vital, number>>;

/** The channels a report may name: a dev server's area is no release, and is never reported. */
export const REPORTED_CHANNELS = ['stable', 'canary', 'override'] as const;
export type ReportedChannel = (typeof REPORTED_CHANNELS)[number];

export const OUTCOMES = ['loaded', 'fell-back', 'failed', 'boundary-error', 'uncaught-error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** One report, with the known fields only. */
export interface Report<Remote extends string = string> {
  remote: Remote;
  release: string;
  channel: ReportedChannel;
  outcome?: Outcome;
  vitals?: Vitals;
}

export const withinBounds = (name: Vital, value: number): boolean => {
  const [low, high] = VITAL_BOUNDS[name];
  return Number.isFinite(value) && value >= low && value <= high;
};
