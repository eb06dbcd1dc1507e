// POST /health/ticket over real HTTP: who is given a ticket, and who is refused, with what
// (docs/release-health.md, "Tickets").
// Run: node --import tsx --test control-plane/src/health/ticketService.test.ts
import assert from 'node:assert/strict';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { parseTrustedProxies } from '@netnet/server-kit';
import { networkOf, networkTag } from './network.ts';
import { deviceTag, verifyTicket, type TicketRelease } from './ticket.ts';
import { createTicketService, TICKET_PATH, type Identity } from './ticketService.ts';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const SECRETS = [Buffer.alloc(32, 9)];
const RELEASES: TicketRelease[] = [
  { remote: 'remote-title', version: '1.4.0', channel: 'canary' },
  { remote: 'remote-title', version: '1.3.0', channel: 'stable' },
];
// The device cookie a running page sets; the service reads it through identityOf, as the shell's does.
const DEVICE_COOKIE = 'netnet-device';
const identityOf = (req: IncomingMessage): Identity => {
  const pair = (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === DEVICE_COOKIE);
  return { member: null, device: pair?.[1] || null };
};

interface Answer {
  status: number | undefined;
  headers: IncomingHttpHeaders;
  body: { ticket?: string; error?: string } | null;
}

// Every request comes from 127.0.0.1, a trusted proxy here, so X-Real-IP names the client as the
// front door would: several clients from one test process.
function ask(port: number, { client = '203.0.113.9', headers = {} }: { client?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: TICKET_PATH, headers: { 'X-Real-IP': client, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end();
  });
}

const A_PAGE_THAT_RAN = { Cookie: `${DEVICE_COOKIE}=device-1; other=x`, 'Sec-Fetch-Site': 'same-origin' };

describe('POST /health/ticket', () => {
  let server: Server;
  let port: number;
  let at: number;
  let asked: number;
  const make = (rate: { perSecond?: number; burst?: number } = {}) =>
    createTicketService({
      secrets: SECRETS,
      identityOf,
      releasesFor: () => {
        asked += 1;
        return RELEASES;
      },
      trusted: parseTrustedProxies('loopback'),
      now: () => at,
      rate,
    });
  // One server; a service of its own (a fresh rate limit) for each test.
  let service = make();
  before(async () => {
    server = createServer((req, res) => void service.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    at = T0;
    asked = 0;
    service = make();
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('gives a page that has run a ticket for its releases, bound to its device and its network', async () => {
    const answer = await ask(port, { headers: { ...A_PAGE_THAT_RAN, Origin: `http://127.0.0.1:${port}`, Host: `127.0.0.1:${port}` } });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['cache-control'], 'no-store');
    const result = verifyTicket(answer.body?.ticket, { secrets: SECRETS, now: T0 });
    assert.equal(result.ok, true, result.reason);
    assert.deepEqual(result.ticket?.releases, RELEASES);
    assert.equal(result.ticket?.device, deviceTag(SECRETS, 'device-1'));
    assert.equal(result.ticket?.network, networkTag(SECRETS, networkOf('203.0.113.9')));
  });

  it('refuses a request from another site with 403, without a ticket and before the map is asked', async () => {
    const otherSites: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': 'none' },
      { Origin: 'https://evil.example' },
      { Origin: `http://evil.example:${port}` },
      { Origin: 'null' },
      { Origin: 'file://' },
    ];
    for (const headers of otherSites) {
      const answer = await ask(port, { headers: { Cookie: `${DEVICE_COOKIE}=device-1`, Host: `127.0.0.1:${port}`, ...headers } });
      assert.equal(answer.status, 403, JSON.stringify(headers));
      assert.deepEqual(answer.body, { error: 'tickets are for the site’s own pages' }, JSON.stringify(headers));
    }
    assert.equal(asked, 0);
  });

  it('refuses a request without the device cookie with 403: no page of the site has run there', async () => {
    for (const cookie of [undefined, 'other=x', `${DEVICE_COOKIE}=`, `not-${DEVICE_COOKIE}=device-1`]) {
      const answer = await ask(port, { headers: { 'Sec-Fetch-Site': 'same-origin', ...(cookie !== undefined && { Cookie: cookie }) } });
      assert.equal(answer.status, 403, String(cookie));
      assert.deepEqual(answer.body, { error: 'a ticket is for a page that has run: no device cookie' }, String(cookie));
    }
    assert.equal(asked, 0);
  });

  it('refuses a client past its rate with 429 and Retry-After, while another client and the same one a second later are served', async () => {
    service = make({ burst: 3, perSecond: 1 });
    const statuses = async (client: string, times: number) => {
      const list: (number | undefined)[] = [];
      for (let i = 0; i < times; i += 1) list.push((await ask(port, { client, headers: A_PAGE_THAT_RAN })).status);
      return list;
    };
    assert.deepEqual(await statuses('203.0.113.9', 3), [200, 200, 200]);
    const over = await ask(port, { headers: A_PAGE_THAT_RAN });
    assert.equal(over.status, 429);
    assert.equal(over.headers['retry-after'], '1');
    assert.deepEqual(over.body, { error: 'too many tickets' });
    assert.equal(asked, 3, 'the map is not asked for a client over its rate');
    assert.deepEqual(await statuses('198.51.100.7', 1), [200]);
    at += 1000;
    assert.deepEqual(await statuses('203.0.113.9', 2), [200, 429]);
  });
});
