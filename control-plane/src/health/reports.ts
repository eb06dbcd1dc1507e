// What a browser may tell the collector about a page load: per remote it used, which release on
// which channel and how it went (a report with an `outcome` is one session of that release), and
// the page's web vitals, which are final only when the member leaves the page and so may come
// later in a report of their own (`vitals` without `outcome`: samples, not a session). Anything else is refused whole, so a
// report can never carry a member id, an email or a URL (no field can hold one), and a batch with
// one bad report changes nothing (docs/release-health.md). Beside the reports a
// batch carries the page's ticket, which the collector verifies (control-plane/src/health/ticket.ts)
// and never keeps: only what its signature vouches for is used.
import { isVersion } from '@netnet/rollout';
import { OUTCOMES, REPORT_LIMITS as limits, REPORTED_CHANNELS as CHANNELS, VITAL_BOUNDS, type Report, type Vital } from '@netnet/rollout/reports';
import site from '@netnet/site';

// The format and its limits are the rollout package's (@netnet/rollout/reports), the browser's
// too, so it never sends a batch this refuses; this file checks a batch against them.
/** The body of one POST: bytes on the wire, then reports in it. */
export const MAX_BODY_BYTES = limits.maxBodyBytes;
export const MAX_REPORTS = limits.maxReports;

const VITALS = Object.keys(VITAL_BOUNDS) as Vital[];

export type ParsedBatch = { reports: Report[]; ticket: string | undefined; error?: undefined } | { error: string; reports?: undefined; ticket?: undefined };

// A version longer than this names no release anyone publishes; it would only grow the figures' keys.
const MAX_VERSION_LENGTH = limits.maxVersionLength;

const REPORT_FIELDS = new Set(['remote', 'release', 'channel', 'outcome', 'vitals']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T => (list as readonly unknown[]).includes(value);

const unknownField = (value: object, allowed: Set<string>) => Object.keys(value).find((key) => !allowed.has(key));

function vitalsError(vitals: unknown): string | null {
  if (!isPlainObject(vitals)) return 'vitals must be an object';
  const unknown = unknownField(vitals, new Set(Object.keys(VITAL_BOUNDS)));
  if (unknown !== undefined) return `unknown vital "${unknown.slice(0, 20)}"`;
  for (const [name, [low, high]] of Object.entries(VITAL_BOUNDS)) {
    const value = vitals[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < low || value > high) {
      return `${name} must be a number from ${low} to ${high}`;
    }
  }
  return null;
}

const hasVital = (vitals: unknown) => isPlainObject(vitals) && VITALS.some((name) => vitals[name] !== undefined);

/** Why one report is refused, or null when it is a report. */
function reportError(report: unknown): string | null {
  if (!isPlainObject(report)) return 'a report must be an object';
  const unknown = unknownField(report, REPORT_FIELDS);
  if (unknown !== undefined) return `unknown field "${unknown.slice(0, 20)}"`;
  if (typeof report.remote !== 'string' || !site.remotes.includes(report.remote)) return 'unknown remote';
  if (typeof report.release !== 'string' || report.release.length > MAX_VERSION_LENGTH || !isVersion(report.release)) {
    return 'release must be a version like 1.4.0';
  }
  if (!isOneOf(CHANNELS, report.channel)) return `channel must be one of ${CHANNELS.join(', ')}`;
  if (report.outcome !== undefined && !isOneOf(OUTCOMES, report.outcome)) return `outcome must be one of ${OUTCOMES.join(', ')}`;
  if (report.vitals !== undefined) {
    const error = vitalsError(report.vitals);
    if (error) return error;
  }
  // Neither a session nor a sample: it would count for nothing but still be stored.
  if (report.outcome === undefined && !hasVital(report.vitals)) return 'a report needs an outcome or a vital';
  return null;
}

/** Why a parsed body is refused, or null when it is a batch of valid reports. */
function batchError(batch: unknown): string | null {
  if (!isPlainObject(batch)) return 'the body must be an object';
  const unknown = unknownField(batch, new Set(['ticket', 'reports']));
  if (unknown !== undefined) return `unknown field "${unknown.slice(0, 20)}"`;
  const { ticket } = batch;
  if (ticket !== undefined && (typeof ticket !== 'string' || ticket.length === 0 || ticket.length > limits.maxTicketLength)) {
    return `ticket must be text of at most ${limits.maxTicketLength} characters`;
  }
  const { reports } = batch;
  if (!Array.isArray(reports)) return '"reports" must be a list';
  if (reports.length === 0) return 'no reports';
  if (reports.length > MAX_REPORTS) return `at most ${MAX_REPORTS} reports per batch`;
  for (let index = 0; index < reports.length; index += 1) {
    const error = reportError(reports[index]);
    if (error) return `report ${index}: ${error}`;
  }
  return null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A request body (bytes or text) read as a batch: `{ reports, ticket }` with copies of the reports
 * holding only the known fields and the page's ticket as sent (unverified: see
 * control-plane/src/health/ticket.ts; undefined when there is none), or `{ error }` with a short
 * message for a 400.
 */
export function parseBatch(body: string | Uint8Array): ParsedBatch {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (size > MAX_BODY_BYTES) return { error: `the body is over ${MAX_BODY_BYTES} bytes` };
  let text: string;
  try {
    text = typeof body === 'string' ? body : strictUtf8.decode(body);
  } catch {
    return { error: 'the body is not UTF-8' };
  }
  let batch: unknown;
  try {
    batch = JSON.parse(text);
  } catch {
    return { error: 'the body is not JSON' };
  }
  const error = batchError(batch);
  if (error) return { error };
  // batchError() found an object with a list of valid reports and a ticket that is text or absent.
  const valid = batch as { reports: Report[]; ticket?: string };
  return { reports: valid.reports.map(copyReport), ticket: valid.ticket };
}

function copyReport({ remote, release, channel, outcome, vitals }: Report): Report {
  const report: Report = { remote, release, channel };
  if (outcome !== undefined) report.outcome = outcome;
  if (vitals) {
    const kept = Object.fromEntries(VITALS.filter((name) => vitals[name] !== undefined).map((name) => [name, vitals[name]]));
    if (Object.keys(kept).length > 0) report.vitals = kept;
  }
  return report;
}
