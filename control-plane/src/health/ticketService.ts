// POST /health/ticket: the release-health ticket of one page load, given to the page once it runs
// (shell/src/health/startHealth.ts asks for it after the first page), never in the HTML or the map
// a cookie-less GET receives (docs/release-health.md). It is bound to the page's
// device cookie, which the running page sets, and to the client network it was asked from: the
// collector counts its batches only from that network, within that device's and network's caps.
//   200  { "ticket": "…" }     403  from another site, or no device cookie     405  not a POST
//   204  nothing to report on (no release in the map)                          429  over the client's rate
import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientAddress, clientKey, createRateLimit, parseTrustedProxies, type Rate, type TrustedProxies } from '@netnet/server-kit';
import { fromOtherSite, send } from './collector.ts';
import { networkOf, networkTag } from './network.ts';
import { deviceTag, issueTicket, type TicketRelease } from './ticket.ts';

export const TICKET_PATH = '/health/ticket';
// A page asks once per load: a client past this is a script.
export const TICKET_RATE = Object.freeze({ perSecond: 2, burst: 20, maxClients: 10_000 });

/** Whom a request's releases are chosen for (shell/src/server/ticketReleases.ts identityOf()). */
export interface Identity {
  member: string | null;
  device: string | null;
}

export interface TicketServiceOptions {
  /** ticketSecrets() (ticket.ts). */
  secrets: Buffer[];
  identityOf(req: IncomingMessage): Identity;
  /** The releases this request's page may report on: its map's stables, and the canaries its identity gets. */
  releasesFor(req: IncomingMessage, identity: Identity): TicketRelease[];
  /** Whose forwarding headers are believed: the server's own (NETNET_TRUSTED_PROXIES). Default: nobody's. */
  trusted?: TrustedProxies;
  now?: () => number;
  rate?: Partial<Rate>;
}

export function createTicketService({ secrets, identityOf, releasesFor, trusted = parseTrustedProxies(), now = Date.now, rate = {} }: TicketServiceOptions) {
  const limit = createRateLimit({ ...TICKET_RATE, ...rate }, now);
  return {
    path: TICKET_PATH,
    matches: (req: Pick<IncomingMessage, 'url'>) => new URL(req.url ?? '/', 'http://ticket').pathname === TICKET_PATH,
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      if (req.method !== 'POST') return send(res, 405, 'POST only', { Allow: 'POST' });
      if (fromOtherSite(req)) return send(res, 403, 'tickets are for the site’s own pages');
      const identity = identityOf(req);
      // The running page has set its device cookie by now; a request without one has run no page.
      if (identity.device === null) return send(res, 403, 'a ticket is for a page that has run: no device cookie');
      const address = clientAddress(req, trusted);
      if (limit.take(clientKey(address) || 'unknown') > 0) return send(res, 429, 'too many tickets', { 'Retry-After': '1' });
      let releases: TicketRelease[];
      try {
        releases = releasesFor(req, identity);
      } catch {
        return send(res, 503, 'the rollout map is not known yet', { 'Retry-After': '5' });
      }
      if (releases.length === 0) return send(res, 204);
      const ticket = issueTicket({
        secrets,
        releases,
        device: deviceTag(secrets, identity.member ?? identity.device),
        network: networkTag(secrets, networkOf(address)),
        now: now(),
      });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ ticket }));
    },
  };
}
