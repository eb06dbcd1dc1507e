import http from 'node:http';
import { randomUUID } from 'node:crypto';

// A script on one client network (any number of addresses in 127.<network>.0.0/24, cookies made
// up at will) doing what the cheapest forgery of release health can: ask the site for tickets and
// send reports with them (docs/release-health.md). No browser: what it costs is
// what an outsider pays.

interface Answer {
  status: number;
  body: string;
}

function call(origin: string, path: string, { method = 'GET', body, cookie, from }: { method?: string; body?: string; cookie?: string; from: string }): Promise<Answer> {
  const { port, host } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        localAddress: from,
        headers: { Host: host, ...(cookie && { Cookie: cookie }), ...(body !== undefined && { 'Content-Type': 'text/plain' }) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error('no answer')));
    req.on('error', reject);
    req.end(body);
  });
}

export interface ForgedRelease {
  remote: string;
  release: string;
  channel: string;
}

/** What a ticket names, read from its payload as anyone holding it can. */
export function ticketReleases(ticket: string): ForgedRelease[] {
  const [payload = ''] = ticket.split('.');
  const { r } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { r: [string, string, string][] };
  return r.map(([remote, release, channel]) => ({ remote, release, channel }));
}

export interface ForgerTally {
  pages: number;
  tickets: number;
  /** Statuses of the report batches sent. */
  reports: Record<number, number>;
  /** Statuses of the ticket requests. */
  ticketAnswers: Record<number, number>;
}

/**
 * Forged page loads from network 127.<network>.0.0/24 until `until()` says stop: per load a GET of
 * `/remotes.json` (as the forger did: a map costs nothing), a ticket for a made-up device,
 * and one batch `reportsFor(releases)` builds from what the ticket names (none: nothing sent).
 */
export async function forge({
  origin,
  network,
  until,
  reportsFor,
  atOnce = 2,
  pauseMs = 100,
}: {
  origin: string;
  network: number;
  until: () => boolean;
  reportsFor: (named: ForgedRelease[]) => object[] | null;
  atOnce?: number;
  /** Between one forged page load and the next: the forger shares the test's process with the site it floods. */
  pauseMs?: number;
}): Promise<ForgerTally> {
  const tally: ForgerTally = { pages: 0, tickets: 0, reports: {}, ticketAnswers: {} };
  let address = 0;
  const next = () => `127.${network}.0.${2 + ((address += 1) % 250)}`;
  const one = async () => {
    const from = next();
    const cookie = `netnet-device=${randomUUID()}`;
    await call(origin, '/remotes.json', { from });
    tally.pages += 1;
    const asked = await call(origin, '/health/ticket', { method: 'POST', cookie, from });
    tally.ticketAnswers[asked.status] = (tally.ticketAnswers[asked.status] ?? 0) + 1;
    if (asked.status !== 200) return;
    const { ticket } = JSON.parse(asked.body) as { ticket: string };
    tally.tickets += 1;
    const reports = reportsFor(ticketReleases(ticket));
    if (!reports) return;
    const sent = await call(origin, `/health/reports?k=${encodeURIComponent(ticket.slice(-16))}`, { method: 'POST', body: JSON.stringify({ ticket, reports }), cookie, from });
    tally.reports[sent.status] = (tally.reports[sent.status] ?? 0) + 1;
  };
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (!until()) {
        await one().catch(() => {});
        await new Promise((done) => setTimeout(done, pauseMs));
      }
    }),
  );
  return tally;
}
