// POST /health/reports on the site's own server: the browsers' beacons (navigator.sendBeacon sends
// text/plain; fetch with keepalive may send application/json). A batch is counted only whole and
// only once the store has it on disk; anything refused leaves the figures as they were.
//   204  counted          400  not a batch of valid reports    403  sent from another site, or
//   405  not a POST       413  body over 16 KB                      without a valid ticket
//   415  another content type                                 429  over the client's rate, or the collector's
//   503  the store could not write it
// A request is checked whole (content type, size, every report, its ticket) before it is charged
// to its client's rate: junk costs the sender nothing, so it cannot use up the allowance of real
// reports sent from the same address (docs/limits.md). What counts is then what
// the page's ticket vouches for: each page load once per release, and its batches only from the
// network it was issued to; each device a few sessions per release and hour, each client network
// a few more in the store that every instance shares (docs/release-health.md).
// A batch whose page load says its canary loaded and its stable failed is refused whole: a page
// load moves the release it used, never two at once in opposite directions.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { HealthStore } from './counts.ts';
import { clientAddress, clientKey, createRateLimit, parseTrustedProxies, type Rate, type TrustedProxies } from '@netnet/server-kit';
import type { Counted, Figures } from './figures.ts';
import { networkOf, networkTag } from './network.ts';
import type { Report } from '@netnet/rollout/reports';
import { parseBatch, MAX_BODY_BYTES } from './reports.ts';
import { startOtlpExport, type Counters, type OtlpSettings } from './otlp.ts';
import { createDeviceCounter, createPageLoadMemo, ticketCovers, verifyTicket, type Ticket } from './ticket.ts';

export interface Collector {
  path: string;
  matches(req: Pick<IncomingMessage, 'url'>): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * A canary or pin that failed on the server, counted by the server that saw it (the page is told
   * nothing to report): one `fell-back` session of that release for the device (deviceTag() of
   * ticket.ts, or null) within its cap, and for the request's client network within the store's.
   * Resolves whether it was counted.
   */
  recordServerFallback(release: { remote: string; release: string; channel: string }, device: string | null, req: IncomingMessage): Promise<boolean>;
  figures(): Figures;
  counters(): Counters;
  close(): void;
}

export const REPORTS_PATH = '/health/reports';
export const RATE_DEFAULTS = Object.freeze({ perSecond: 20, burst: 40, maxClients: 10_000 });
/**
 * All clients together: what one instance takes a second, however many addresses send (a flood
 * from rotating addresses, or a whole network behind one proxy the collector was not told about).
 * A page load sends a batch or two, so this is far more than one instance serves pages, and above
 * the 5,000 reports/s (1,250 batches of 4) the store is measured at (npm run bench:health).
 */
export const GLOBAL_RATE_DEFAULTS = Object.freeze({ perSecond: 2_000, burst: 4_000 });

const CONTENT_TYPES = new Set(['text/plain', 'application/json']);

/**
 * Beacons come from the site's own pages, and browsers say where a request comes from: an Origin
 * naming another host than the one the request was sent to, or Sec-Fetch-Site saying anything but
 * same-origin, is another site's page. Hosts are compared without their ports, so a front door that
 * passes on the Host without its port still works. A request with neither header is not a
 * browser's cross-site request (a script or a tool, which could send anything anyway).
 */
export function fromOtherSite(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    const { protocol, hostname } = new URL(origin);
    if (protocol !== 'http:' && protocol !== 'https:') return true;
    return hostname !== new URL(`http://${req.headers.host ?? ''}`).hostname;
  } catch {
    return true; // "null" (a sandboxed or file: page) or not an origin at all
  }
}

export function send(res: ServerResponse, status: number, error?: string, headers: OutgoingHttpHeaders = {}): void {
  res.writeHead(status, { 'Cache-Control': 'no-store', ...headers, ...(error && { 'Content-Type': 'application/json' }) });
  res.end(error ? JSON.stringify({ error }) : undefined);
}

/** The body, or null when it grows past `limit` bytes (then reading stops) or the client goes away. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (value: Buffer | null) => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        done(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks, size));
    const onError = () => done(null);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

export interface CollectorOptions {
  /**
   * createHealthStore() (./counts.ts): where batches go before the 204, with
   * their network's tag; it resolves with what its per-network caps counted (all when it says nothing).
   */
  store: { figures: HealthStore['figures']; append(reports: Counted[], at: number, network?: string): Promise<Counted[] | void> };
  /** ticketSecrets() (ticket.ts): a batch counts only with a ticket signed with one of them. */
  secrets: Buffer[];
  /** The clock batches are counted at (ms). */
  now?: () => number;
  /** RATE_DEFAULTS overrides. */
  rate?: Partial<Rate>;
  /** GLOBAL_RATE_DEFAULTS overrides. */
  globalRate?: Partial<Omit<Rate, 'maxClients'>>;
  /** Refuses reports of releases that do not exist (e.g. not published), so made-up versions make no figures. */
  isKnownRelease?: ((remote: string, release: string) => boolean) | undefined;
  /**
   * The key of the rate limit. Default: the socket's address, or, when the socket's peer is a
   * trusted proxy (`trusted`), the client it names in X-Real-IP /
   * X-Forwarded-For (@netnet/server-kit, trustedProxies.ts); an IPv6 client by its /64.
   */
  clientOf?: ((req: IncomingMessage) => string) | undefined;
  /** The server's OTLP_VARIABLES: with an endpoint, the OTLP export starts (./otlp.ts). Default: none. */
  otlp?: OtlpSettings;
  /** Whose forwarding headers are believed: the server's own (NETNET_TRUSTED_PROXIES). Default: nobody's. */
  trusted?: TrustedProxies;
  fetch?: typeof globalThis.fetch;
}

/**
 * The key the front door routes a batch by (`?k=`, the ticket's last characters: part of its
 * signature), so every copy of one ticket reaches the same instance and its page-load memo.
 */
export const routingKey = (ticket: string): string => ticket.slice(-16);

/** The reports a verified ticket names (`kept`; a QA pin's it does not name are dropped), or why the batch is refused. */
function coverage(ticket: Ticket, reports: readonly Report[]): { error: string; kept?: undefined } | { kept: Report[]; error?: undefined } {
  const kept: Report[] = [];
  for (const report of reports) {
    if (ticketCovers(ticket, report)) kept.push(report);
    // A QA pin is chosen in the browser, so no ticket names it; its sessions never decide a rollout.
    else if (report.channel !== 'override') return { error: `the page was not given ${report.remote} ${report.release} (${report.channel})` };
  }
  return { kept };
}

export function createCollector({
  store,
  secrets,
  now = Date.now,
  rate = {},
  globalRate = {},
  isKnownRelease,
  clientOf,
  otlp = {},
  trusted = parseTrustedProxies(),
  fetch = globalThis.fetch,
}: CollectorOptions): Collector {
  const keyOf = clientOf ?? ((req: IncomingMessage) => clientKey(clientAddress(req, trusted)) || 'unknown');
  const networkOfRequest = (req: IncomingMessage) => networkTag(secrets, networkOf(clientAddress(req, trusted)));
  const limit = createRateLimit({ ...RATE_DEFAULTS, ...rate }, now);
  const all = createRateLimit({ ...GLOBAL_RATE_DEFAULTS, ...globalRate, maxClients: 1 }, now);
  const pageLoads = createPageLoadMemo();
  const devices = createDeviceCounter();
  const startedAt = now();
  // Monotonic counts since start, for OTLP (the figures forget what leaves their window).
  const reportCounts = new Map<string, number>();
  const refusedCounts = new Map<number, number>();
  const refuse = (res: ServerResponse, status: number, error: string, headers?: OutgoingHttpHeaders) => {
    refusedCounts.set(status, (refusedCounts.get(status) ?? 0) + 1);
    send(res, status, error, headers);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname, searchParams } = new URL(req.url ?? '/', 'http://collector');
    if (pathname !== REPORTS_PATH) return send(res, 404, 'not found');
    if (req.method !== 'POST') return refuse(res, 405, 'POST only', { Allow: 'POST' });
    if (fromOtherSite(req)) return refuse(res, 403, 'reports come from the site itself');
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!CONTENT_TYPES.has(type)) return refuse(res, 415, 'text/plain or application/json');
    const declared = Number(req.headers['content-length']);
    const tooLarge = () => refuse(res, 413, `at most ${MAX_BODY_BYTES} bytes`, { Connection: 'close' });
    if (declared > MAX_BODY_BYTES) return tooLarge();
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === null) return req.destroyed ? undefined : tooLarge();
    const { reports, ticket: sent, error } = parseBatch(body);
    if (error !== undefined) return refuse(res, 400, error);
    const at = now();
    const check = verifyTicket(sent, { secrets, now: at });
    if (!check.ok) return refuse(res, 403, sent === undefined ? 'a report needs the page’s ticket' : `ticket refused: ${check.reason}`);
    const network = networkOfRequest(req);
    if (check.ticket.network !== network) return refuse(res, 403, 'ticket refused: it was issued to another network');
    const routed = searchParams.get('k');
    if (routed !== null && routed !== routingKey(sent as string)) return refuse(res, 400, 'k is not this ticket’s');
    const { kept, error: uncovered } = coverage(check.ticket, reports);
    if (uncovered !== undefined) return refuse(res, 403, uncovered);
    // Only now is the batch charged: to its client, then to everyone's.
    if (limit.take(keyOf(req)) > 0 || all.take('all') > 0) return refuse(res, 429, 'too many reports', { 'Retry-After': '1' });
    if (isKnownRelease && !kept.every((report) => isKnownRelease(report.remote, report.release))) {
      return refuse(res, 400, 'unknown release');
    }
    if (pageLoads.contradicts(check.ticket, kept, at)) return refuse(res, 403, 'a page load reports the release it used: its canary loaded, so its stable did not fail');
    const counted = claim(check.ticket, kept, at);
    if (counted.length === 0) return send(res, 204);
    if (!store.figures.canRecord(counted)) return refuse(res, 400, 'too many distinct releases');
    let stored: Counted[];
    try {
      stored = (await store.append(counted, at, network)) ?? counted;
    } catch {
      return refuse(res, 503, 'not stored, try again', { 'Retry-After': '5' });
    }
    countReports(stored);
    send(res, 204);
  }

  /** What of the reports counts: each page load once per release, each device within its cap. */
  function claim(ticket: Ticket, reports: readonly Report[], at: number): Report[] {
    const counted: Report[] = [];
    for (const report of reports) {
      const claimed = pageLoads.claim(ticket, report, at);
      if (!claimed) continue;
      const { remote, release, channel } = report;
      const offered = claimed.outcome as Report['outcome'];
      const outcome = offered !== undefined && devices.take(ticket, { remote, release, channel, outcome: offered }, at) ? offered : undefined;
      // Vitals ride with a session that counts; without one they have a cap of their own.
      const vitals = claimed.vitals && (outcome !== undefined || devices.take(ticket, { remote, release, channel }, at)) ? claimed.vitals : undefined;
      if (outcome === undefined && vitals === undefined) continue;
      counted.push({ remote, release, channel, ...(outcome !== undefined && { outcome }), ...(vitals && { vitals }) });
    }
    return counted;
  }

  async function recordServerFallback({ remote, release, channel }: { remote: string; release: string; channel: string }, device: string | null, req: IncomingMessage): Promise<boolean> {
    const at = now();
    const report = { remote, release, channel: channel as Report['channel'], outcome: 'fell-back' as const };
    const network = networkOfRequest(req);
    const seen: Ticket = { pageLoad: randomUUID(), issuedAt: at, device, network, releases: [] };
    if (!devices.take(seen, report, at) || !store.figures.canRecord([report])) return false;
    const stored = (await store.append([report], at, network)) ?? [report];
    countReports(stored);
    return stored.length > 0;
  }

  function countReports(reports: readonly Counted[]) {
    for (const { remote, release, channel, outcome } of reports) {
      if (outcome === undefined) continue;
      const key = JSON.stringify([remote, release, channel, outcome]);
      reportCounts.set(key, (reportCounts.get(key) ?? 0) + 1);
    }
  }

  const collector: Collector = {
    path: REPORTS_PATH,
    /** Whether a request is the collector's to answer (the server routes it here). */
    matches: (req) => new URL(req.url ?? '/', 'http://collector').pathname === REPORTS_PATH,
    handle,
    recordServerFallback,
    /** The live figures (control-plane/src/health/figures.ts), for the guard and the status. */
    figures: () => store.figures,
    /** Counts since the collector started: accepted reports per series and outcome, refused batches per status. */
    counters: () => ({
      startedAt,
      reports: [...reportCounts].map(([key, count]) => {
        const [remote, release, channel, outcome] = JSON.parse(key) as [string, string, string, string];
        return { remote, release, channel, outcome, count };
      }),
      refused: [...refusedCounts].map(([status, count]) => ({ status, count })),
    }),
    close: () => stopExport?.(),
  };
  const stopExport = startOtlpExport({ settings: otlp, fetch, now, collector });
  return collector;
}
