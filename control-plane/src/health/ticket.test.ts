// Release-health tickets: signature, age, scope, one count per page load, the per-device cap.
// Run: node --import tsx --test control-plane/src/health/ticket.test.ts
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  createDeviceCounter,
  createPageLoadMemo,
  DEVICE_CAP,
  deviceTag,
  issueTicket,
  sessionsAllowed,
  TICKET,
  ticketCovers,
  ticketSecrets,
  verifyTicket,
  type Ticket,
} from './ticket.ts';
import { networkOf, networkTag } from './network.ts';
import type { Report } from '@netnet/rollout/reports';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const secret = Buffer.from('a secret of at least thirty-two bytes, for tests only');
const otherSecret = Buffer.from('another secret of at least thirty-two bytes, for tests');
const secrets = [secret];
const otherSecrets = [otherSecret];
const releases = [
  { remote: 'remote-title', version: '1.4.0', channel: 'canary' },
  { remote: 'remote-title', version: '1.3.0', channel: 'stable' },
  { remote: 'remote-browse', version: '2.0.1', channel: 'stable' },
];
const canary = { remote: 'remote-title', release: '1.4.0', channel: 'canary' } as const;
// The network tag of the client the ticket was issued to (network.ts networkTag()).
const NETWORK = networkTag(secrets, networkOf('203.0.113.9'));
const ticketAt = (now = T0, options: { pageLoad?: string; device?: string | null } = {}) =>
  issueTicket({ secrets, releases, device: deviceTag(secrets, 'bucket-7f3a'), network: NETWORK, now, ...options });
const verified = (ticket: string, now = T0): Ticket => {
  const result = verifyTicket(ticket, { secrets, now });
  assert.equal(result.ok, true, result.reason);
  return result.ticket as Ticket;
};
// A payload signed as the server would sign it, whatever it holds.
const signed = (payload: string, key = secret) => `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('the signature', () => {
  it('verifies a ticket the server issued, giving back its page load, device and releases', () => {
    const ticket = verified(ticketAt(T0, { pageLoad: 'page-load-0000000001' }));
    assert.deepEqual(ticket, { pageLoad: 'page-load-0000000001', issuedAt: T0, device: deviceTag(secrets, 'bucket-7f3a'), network: NETWORK, releases });
  });

  it('refuses a ticket signed with another key, or with its payload or signature changed', () => {
    const ticket = ticketAt();
    assert.deepEqual(verifyTicket(ticket, { secrets: otherSecrets, now: T0 }), { ok: false, reason: 'signature' });
    const [payload = '', signature = ''] = ticket.split('.');
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherRelease = encode({ ...decoded, r: [['remote-title', '1.5.0', 'canary']] });
    assert.equal(verifyTicket(`${otherRelease}.${signature}`, { secrets, now: T0 }).reason, 'signature');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    assert.equal(verifyTicket(`${payload}.${flipped}`, { secrets, now: T0 }).reason, 'signature');
    assert.equal(verifyTicket(`${payload}.${signature.slice(0, 20)}`, { secrets, now: T0 }).reason, 'signature');
    // The same bytes spelt otherwise (the last character's spare bits): refused, so one ticket has one routing key.
    const last = signature.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBits = alphabet[(alphabet.indexOf(last) & ~3) | ((alphabet.indexOf(last) + 1) & 3)]!;
    const respelt = `${signature.slice(0, -1)}${sameBits}`;
    assert.deepEqual(Buffer.from(respelt, 'base64url'), Buffer.from(signature, 'base64url'));
    assert.equal(verifyTicket(`${payload}.${respelt}`, { secrets, now: T0 }).reason, 'signature');
  });

  it('verifies with a previous secret kept for rotation, and not once it is dropped', () => {
    const old = issueTicket({ secrets: otherSecrets, releases, now: T0 });
    assert.equal(verifyTicket(old, { secrets: [secret, otherSecret], now: T0 }).ok, true);
    assert.equal(verifyTicket(old, { secrets, now: T0 }).reason, 'signature');
  });

  it('refuses what is not a ticket before reading it, and a signed payload that is not one', () => {
    for (const value of [undefined, 42, '', 'abc', 'a.b.c', 'a b.c', `${'a'.repeat(TICKET.maxLength)}.b`]) {
      assert.deepEqual(verifyTicket(value, { secrets, now: T0 }), { ok: false, reason: 'malformed' }, String(value).slice(0, 20));
    }
    const good = { v: 2, id: 'page-load-0000000001', at: T0, d: null, n: NETWORK, r: [['remote-title', '1.4.0', 'canary']] };
    assert.equal(verifyTicket(signed(encode(good)), { secrets, now: T0 }).ok, true);
    const bad = [
      Buffer.from('not json').toString('base64url'),
      encode({ ...good, v: 1 }),
      encode({ ...good, n: undefined }),
      encode({ ...good, n: '203.0.113.0/24' }),
      encode({ ...good, id: 'short' }),
      encode({ ...good, at: String(T0) }),
      encode({ ...good, d: 42 }),
      encode({ ...good, r: [] }),
      encode({ ...good, r: [['remote-title', '1.4.0']] }),
      encode({ ...good, r: Array.from({ length: TICKET.maxReleases + 1 }, () => good.r[0]) }),
    ];
    for (const payload of bad) assert.equal(verifyTicket(signed(payload), { secrets, now: T0 }).reason, 'malformed', payload);
  });

  it('holds nothing but the page load, the time, keyed hashes of the device and the network, and the releases: no member id, address, email or URL', () => {
    const [payload = ''] = ticketAt().split('.');
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    assert.deepEqual(Object.keys(decoded), ['v', 'id', 'at', 'd', 'n', 'r']);
    assert.doesNotMatch(Buffer.from(payload, 'base64url').toString(), /bucket-7f3a|203\.0\.113/);
  });

  it('names at most 16 releases', () => {
    assert.throws(() => issueTicket({ secrets, releases: Array.from({ length: 17 }, () => releases[0]!), now: T0 }), /1 to 16 releases/);
    assert.throws(() => issueTicket({ secrets, releases: [], now: T0 }), /1 to 16 releases/);
  });
});

describe('the age', () => {
  it('holds for 30 minutes and no longer', () => {
    const ticket = ticketAt(T0);
    assert.equal(verifyTicket(ticket, { secrets, now: T0 + 30 * 60_000 }).ok, true);
    assert.deepEqual(verifyTicket(ticket, { secrets, now: T0 + 30 * 60_000 + 1 }), { ok: false, reason: 'expired' });
    assert.equal(verifyTicket(ticket, { secrets, now: T0 + 5 * 60_000, maxAgeMs: 5 * 60_000 - 1 }).reason, 'expired');
  });

  it('allows a minute of clock skew between servers, not more', () => {
    assert.equal(verifyTicket(ticketAt(T0 + 60_000), { secrets, now: T0 }).ok, true);
    assert.deepEqual(verifyTicket(ticketAt(T0 + 60_001), { secrets, now: T0 }), { ok: false, reason: 'future' });
  });
});

describe('the scope', () => {
  it('covers the releases the page was given, each on its own channel, and nothing else', () => {
    const ticket = verified(ticketAt());
    assert.equal(ticketCovers(ticket, canary), true);
    assert.equal(ticketCovers(ticket, { remote: 'remote-title', release: '1.3.0', channel: 'stable' }), true);
    assert.equal(ticketCovers(ticket, { remote: 'remote-title', release: '1.5.0', channel: 'canary' }), false);
    assert.equal(ticketCovers(ticket, { remote: 'remote-title', release: '1.4.0', channel: 'stable' }), false);
    assert.equal(ticketCovers(ticket, { remote: 'remote-title', release: '1.4.0', channel: 'override' }), false);
    assert.equal(ticketCovers(ticket, { remote: 'remote-search', release: '1.4.0', channel: 'canary' }), false);
  });
});

describe('one count per page load', () => {
  it('counts a page load’s session once per release, however often its report comes', () => {
    const memo = createPageLoadMemo();
    const ticket = verified(ticketAt());
    assert.deepEqual(memo.claim(ticket, { ...canary, outcome: 'fell-back' }, T0), { outcome: 'fell-back' });
    for (let replay = 0; replay < 100; replay += 1) assert.equal(memo.claim(ticket, { ...canary, outcome: 'fell-back' }, T0), null);
    assert.equal(memo.claim(ticket, { ...canary, outcome: 'loaded' }, T0), null);
    // Another release of the same page load, and the same release in another page load, count.
    assert.deepEqual(memo.claim(ticket, { remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'loaded' }, T0), { outcome: 'loaded' });
    assert.deepEqual(memo.claim(verified(ticketAt()), { ...canary, outcome: 'loaded' }, T0), { outcome: 'loaded' });
  });

  it('passes the one failure the browser sends after a session that went out as loaded, as a correction of it', () => {
    const memo = createPageLoadMemo();
    const ticket = verified(ticketAt());
    memo.claim(ticket, { ...canary, outcome: 'loaded' }, T0);
    assert.deepEqual(memo.claim(ticket, { ...canary, outcome: 'uncaught-error' }, T0), { outcome: 'uncaught-error', replaces: 'loaded' });
    assert.equal(memo.claim(ticket, { ...canary, outcome: 'uncaught-error' }, T0), null);
    assert.equal(memo.claim(ticket, { ...canary, outcome: 'boundary-error' }, T0), null);
  });

  it('counts each vital once per page load and release', () => {
    const memo = createPageLoadMemo();
    const ticket = verified(ticketAt());
    assert.deepEqual(memo.claim(ticket, { ...canary, outcome: 'loaded', vitals: { lcp: 1800 } }, T0), { outcome: 'loaded', vitals: { lcp: 1800 } });
    assert.equal(memo.claim(ticket, { ...canary, vitals: { lcp: 900 } }, T0), null);
    assert.deepEqual(memo.claim(ticket, { ...canary, vitals: { lcp: 900, cls: 0.1 } }, T0), { vitals: { cls: 0.1 } });
  });

  it('forgets a page load once its ticket has expired, and refuses new ones rather than forget live ones when full', () => {
    const memo = createPageLoadMemo({ maxEntries: 2 });
    const first = verified(ticketAt(T0));
    const second = verified(ticketAt(T0 + 60_000), T0 + 60_000);
    memo.claim(first, { ...canary, outcome: 'loaded' }, T0);
    memo.claim(second, { ...canary, outcome: 'loaded' }, T0 + 60_000);
    const third = verified(ticketAt(T0 + 120_000), T0 + 120_000);
    assert.equal(memo.claim(third, { ...canary, outcome: 'loaded' }, T0 + 120_000), null);
    // The first page load is still remembered: its replay still counts nothing.
    assert.equal(memo.claim(first, { ...canary, outcome: 'loaded' }, T0 + 120_000), null);
    // Past the first ticket's life (and the skew), its place is free.
    const late = T0 + TICKET.maxAgeMs + TICKET.skewMs + 1;
    const fourth = verified(ticketAt(late), late);
    assert.deepEqual(memo.claim(fourth, { ...canary, outcome: 'loaded' }, late), { outcome: 'loaded' });
    assert.equal(memo.size, 2);
  });
});

describe('the per-device cap', () => {
  it('allows 5 sessions per device, release and hour', () => {
    assert.equal(DEVICE_CAP.sessions, 5);
    assert.equal(sessionsAllowed({ counted: 0 }), 1);
    assert.equal(sessionsAllowed({ counted: 4 }), 1);
    assert.equal(sessionsAllowed({ counted: 5 }), 0);
    assert.equal(sessionsAllowed({ counted: 9 }), 0);
    assert.equal(sessionsAllowed({ counted: 3, offered: 5 }), 2);
    assert.equal(sessionsAllowed({ counted: 0, offered: 50 }), 5);
    assert.equal(sessionsAllowed({ counted: 1, offered: 3, cap: 2 }), 1);
  });

  it('stops a device’s sixth session of a release within the hour, not another release’s or the next hour’s', () => {
    const devices = createDeviceCounter();
    const sessions = Array.from({ length: 6 }, () => verified(ticketAt()));
    const taken = sessions.map((ticket) => devices.take(ticket, { ...canary, outcome: 'fell-back' }, T0 + 1000));
    assert.deepEqual(taken, [true, true, true, true, true, false]);
    assert.equal(devices.take(sessions[0]!, { remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'loaded' }, T0 + 1000), true);
    // Vitals-only reports have a cap of their own: the sessions' does not silence them.
    assert.equal(devices.take(sessions[0]!, { ...canary, vitals: { lcp: 2000 } }, T0 + 1000), true);
    assert.equal(devices.take(verified(ticketAt()), { ...canary, outcome: 'fell-back' }, T0 + DEVICE_CAP.windowMs), true);
  });

  it('tells devices apart by their bucket id; page loads without one share one device’s cap', () => {
    const devices = createDeviceCounter({ cap: 1 });
    const of = (bucketId: string | null) => verified(issueTicket({ secrets, releases, device: deviceTag(secrets, bucketId), now: T0 }));
    assert.equal(devices.take(of('bucket-a'), { ...canary, outcome: 'loaded' }, T0), true);
    assert.equal(devices.take(of('bucket-a'), { ...canary, outcome: 'loaded' }, T0), false);
    assert.equal(devices.take(of('bucket-b'), { ...canary, outcome: 'loaded' }, T0), true);
    assert.equal(devices.take(of(null), { ...canary, outcome: 'loaded' }, T0), true);
    assert.equal(devices.take(of(null), { ...canary, outcome: 'loaded' }, T0), false);
    assert.equal(deviceTag(secrets, 'bucket-a'), deviceTag(secrets, 'bucket-a'));
    assert.notEqual(deviceTag(secrets, 'bucket-a'), deviceTag(otherSecrets, 'bucket-a'));
  });
});

describe('forged traffic', () => {
  // Verify, scope, one count per page load, device cap: what the collector is to do per report.
  function counter() {
    const memo = createPageLoadMemo();
    const devices = createDeviceCounter();
    let counted = 0;
    return {
      post(ticket: string | undefined, reports: Report[], now = T0) {
        const result = verifyTicket(ticket, { secrets, now });
        if (!result.ok) return;
        for (const report of reports) {
          if (!ticketCovers(result.ticket, report)) continue;
          const claimed = memo.claim(result.ticket, report, now);
          if (claimed?.outcome && !claimed.replaces && devices.take(result.ticket, report, now)) counted += 1;
        }
      },
      get counted() {
        return counted;
      },
    };
  }
  const invented = Array.from({ length: 50 }, () => ({ ...canary, outcome: 'fell-back' as const }));

  it('counts none of 40 batches of 50 invented sessions without a ticket, or with a forged, expired or other release’s one', () => {
    const collector = counter();
    for (let batch = 0; batch < 40; batch += 1) collector.post(undefined, invented);
    for (let batch = 0; batch < 40; batch += 1) collector.post(issueTicket({ secrets: otherSecrets, releases, now: T0 }), invented);
    for (let batch = 0; batch < 40; batch += 1) collector.post(ticketAt(T0 - TICKET.maxAgeMs - 1), invented);
    const otherRelease = issueTicket({ secrets, releases: [{ remote: 'remote-title', version: '1.3.0', channel: 'stable' }], now: T0 });
    for (let batch = 0; batch < 40; batch += 1) collector.post(otherRelease, invented);
    assert.equal(collector.counted, 0);
  });

  it('counts a real ticket replayed 100 times as the one session it was, and one device’s hundred page loads as 5', () => {
    const collector = counter();
    const ticket = ticketAt();
    for (let replay = 0; replay < 100; replay += 1) collector.post(ticket, invented);
    assert.equal(collector.counted, 1);
    for (let load = 0; load < 100; load += 1) collector.post(ticketAt(), invented);
    assert.equal(collector.counted, 5);
  });
});

describe('the secrets', () => {
  it('come from NETNET_TICKET_SECRET, with NETNET_TICKET_SECRET_PREVIOUS verifying too', () => {
    const current = 'c'.repeat(32);
    const previous = 'p'.repeat(40);
    assert.deepEqual(ticketSecrets({ current }), [Buffer.from(current)]);
    assert.deepEqual(ticketSecrets({ current, previous }), [Buffer.from(current), Buffer.from(previous)]);
  });

  it('are random per start in local mode without one, and required with 32 bytes anywhere else', () => {
    const [one] = ticketSecrets({ local: true });
    const [two] = ticketSecrets({ local: true });
    assert.equal(one?.length, 32);
    assert.notDeepEqual(one, two);
    assert.throws(() => ticketSecrets({}), /NETNET_TICKET_SECRET is not set/);
    assert.throws(() => ticketSecrets({ current: 'short' }), /at least 32 bytes/);
    assert.throws(() => ticketSecrets({ current: 'c'.repeat(32), previous: 'short' }), /at least 32 bytes/);
  });
});
