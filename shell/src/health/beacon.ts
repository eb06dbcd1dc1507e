import { REPORT_LIMITS as limits } from '@netnet/rollout/reports';
import type { HealthReport } from './reports';

// How reports reach the site's own server: a beacon, which the browser delivers even while the
// page is going away, as text/plain (a "simple" request the collector accepts, so no preflight);
// fetch with keepalive where there is no beacon or the browser declines it. A report lost is a
// session not counted, never something the member sees: nothing here throws.

const REPORTS_PATH = '/health/reports';
const TICKET_PATH = '/health/ticket';
// The front door sends every batch of one ticket to the same server, which counts each page load
// once: it routes by this key, the ticket's last characters (control-plane/src/health/collector.ts).
const reportsUrl = (ticket?: string) => (ticket === undefined ? REPORTS_PATH : `${REPORTS_PATH}?k=${encodeURIComponent(ticket.slice(-16))}`);
// The collector's limits per POST, from the report format it reads too (@netnet/rollout):
// a batch over them is refused whole.
export const MAX_REPORTS = limits.maxReports;
export const MAX_BODY_BYTES = limits.maxBodyBytes;

const beaconOf = (): ((url: string, body: string) => boolean) | null =>
  typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function' ? navigator.sendBeacon.bind(navigator) : null;
const fetchOf = (): typeof fetch | null => (typeof fetch === 'function' ? fetch : null);

/** Tries for a page's ticket, and the longest wait between two: a session is worth a few seconds of waiting, not a loop. */
const TICKET_TRIES = 3;
const MAX_TICKET_WAIT_S = 10;

/** Whether this browser can send reports at all. */
export const canSend = (): boolean => beaconOf() !== null || fetchOf() !== null;

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).length;
// The page's ticket (proof that this site served it these releases, control-plane/src/health/ticket.ts)
// goes with every batch; a report without one is not counted.
const bodyOf = (reports: readonly string[], ticket?: string) =>
  `{${ticket === undefined ? '' : `"ticket":${JSON.stringify(ticket)},`}"reports":[${reports.join(',')}]}`;

/** The POST bodies for some reports: at most MAX_REPORTS reports and MAX_BODY_BYTES each, in order. */
export function bodiesFor(reports: readonly HealthReport[], ticket?: string): string[] {
  const empty = bytes(bodyOf([], ticket));
  const bodies: string[] = [];
  let batch: string[] = [];
  let size = empty;
  for (const report of reports) {
    const json = JSON.stringify(report);
    const length = bytes(json);
    // Fields are bounded, so no report comes near the limit; one that did would only be refused.
    if (empty + length > MAX_BODY_BYTES) continue;
    if (batch.length > 0 && (batch.length === MAX_REPORTS || size + 1 + length > MAX_BODY_BYTES)) {
      bodies.push(bodyOf(batch, ticket));
      batch = [];
      size = empty;
    }
    size += length + (batch.length > 0 ? 1 : 0);
    batch.push(json);
  }
  if (batch.length > 0) bodies.push(bodyOf(batch, ticket));
  return bodies;
}

function post(url: string, body: string): void {
  try {
    if (beaconOf()?.(url, body)) return;
  } catch {
    // The browser refused the beacon outright: try fetch.
  }
  try {
    fetchOf()?.(url, { method: 'POST', keepalive: true, body, headers: { 'Content-Type': 'text/plain' } }).catch(() => {});
  } catch {
    // Nothing left to try; the reports are lost.
  }
}

/** Sends reports now, with the page's ticket, in as many batches as the collector's limits need. */
export function sendReports(reports: readonly HealthReport[], ticket?: string): void {
  for (const body of bodiesFor(reports, ticket)) post(reportsUrl(ticket), body);
}

/**
 * This page load's ticket, asked of the site's server once the page runs (its device cookie set):
 * the server hands none out with the HTML or the map, so a report costs a page that ran. undefined
 * when the server gives none (or cannot be asked): then nothing is sent.
 */
export async function requestTicket({ tries = TICKET_TRIES, wait = (ms: number) => new Promise<void>((done) => setTimeout(done, ms)) } = {}): Promise<string | undefined> {
  const request = fetchOf();
  if (!request) return undefined;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await request(TICKET_PATH, { method: 'POST', credentials: 'same-origin', cache: 'no-store' });
      if (response.status === 200) {
        const { ticket } = (await response.json()) as { ticket?: unknown };
        return typeof ticket === 'string' && ticket.length <= limits.maxTicketLength ? ticket : undefined;
      }
      // Busy (429: many pages from this address at once) or not ready (503: the map is not
      // known yet) is asked again when the server says, within reason; anything else is final.
      const said = response.headers.get('Retry-After');
      const retryAfter = said === null ? NaN : Number(said);
      if ((response.status !== 429 && response.status !== 503) || attempt >= tries || !(retryAfter >= 0)) return undefined;
      await wait(Math.min(retryAfter, MAX_TICKET_WAIT_S) * 1000);
    } catch {
      return undefined;
    }
  }
}
