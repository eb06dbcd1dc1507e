// Proof that this site served a page its releases: a release-health report counts only with a
// ticket the server signed when it gave the page its remote map (docs/architecture.md, "Release
// health"). Without one anybody could post invented sessions and steer the guard.
//
// A ticket is `<payload>.<signature>`, both base64url: the payload is JSON naming the page load
// (a random id), when it was issued, the device it was issued to (a keyed hash of its bucket id,
// so neither the report nor the store learns the id) and the releases the page may report on —
// for each remote the release it was given and the stable it can fall back to, each with its
// channel. The signature is HMAC-SHA256 of the payload with the site's secret.
//
// What a ticket proves: that a server holding the secret handed these releases to one page load
// at most `maxAgeMs` ago. What it does not: that a browser ran the page, or that what the report
// says happened. Hence the limits beside it, which bound what one ticket and one device weigh:
// each page load counts once per release (createPageLoadMemo), and a device at most
// DEVICE_CAP.sessions sessions per release and hour (sessionsAllowed).
//
// Pure logic and in-memory bounds; a store shared by several servers keeps the same counts
// under the same keys (pageLoadKey, deviceKey).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { REPORT_LIMITS as limits } from '@netnet/rollout/reports';
import type { Report } from '@netnet/rollout/reports';

/** A release a ticket names. */
export interface TicketRelease {
  remote: string;
  version: string;
  channel: string;
}

/** A verified ticket's contents. */
export interface Ticket {
  pageLoad: string;
  issuedAt: number;
  device: string | null;
  /** networkTag() of the client network the ticket was issued to: its batches must come from there. */
  network: string;
  releases: TicketRelease[];
}

export type TicketCheck =
  | { ok: true; ticket: Ticket; reason?: undefined }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' | 'future'; ticket?: undefined };

/** What of a report counts (createPageLoadMemo().claim). */
export interface Claimed {
  outcome?: string;
  replaces?: 'loaded';
  vitals?: Record<string, number>;
}

/** A report's parts a ticket and the counts look at. */
type Reported = Pick<Report, 'remote' | 'release' | 'outcome' | 'vitals'> & { channel: string };

export const TICKET = Object.freeze({
  // Long enough for a member who opens a later area of the page (its remote then loads and
  // reports) well after the first paint; short enough that tickets gathered today are no use tomorrow.
  maxAgeMs: 30 * 60_000,
  // Servers' clocks may differ by this much: a ticket from slightly ahead is not refused.
  skewMs: 60_000,
  // Bounds on what is parsed at all: a ticket longer than this, or naming more releases, is no
  // ticket. The length is the batch's limit too (the report format's, @netnet/rollout).
  maxLength: limits.maxTicketLength,
  maxReleases: 16,
  // A secret shorter than this is guessable by brute force over tickets seen.
  minSecretBytes: 32,
});

export const DEVICE_CAP = Object.freeze({ sessions: 5, windowMs: 60 * 60_000 });
const NO_DEVICE = '-no-device-';

const SECRET_VARIABLE = 'NETNET_TICKET_SECRET';
const PREVIOUS_SECRET_VARIABLE = 'NETNET_TICKET_SECRET_PREVIOUS';

/**
 * The secrets tickets are signed with: the first signs, every one verifies, so a secret can be
 * rotated (the old one moved to NETNET_TICKET_SECRET_PREVIOUS) without refusing tickets already
 * handed out. `current` and `previous` are NETNET_TICKET_SECRET and that variable, as the server's
 * config read them. In local mode without one, a random secret for this start (tickets then die
 * with the process, which local mode can afford). Anywhere else a missing or short secret throws:
 * several servers must share it, and a guessable one forges tickets.
 */
export function ticketSecrets({ current, previous, local = false }: { current?: string; previous?: string; local?: boolean }): Buffer[] {
  if (!current) {
    if (local) return [randomBytes(TICKET.minSecretBytes)];
    throw new Error(`${SECRET_VARIABLE} is not set: release-health tickets need a secret shared by the site's servers`);
  }
  const secrets = [current, previous].filter((secret): secret is string => Boolean(secret)).map((secret) => Buffer.from(secret, 'utf8'));
  if (secrets.some((secret) => secret.length < TICKET.minSecretBytes)) {
    throw new Error(`${SECRET_VARIABLE} (and ${PREVIOUS_SECRET_VARIABLE}) must be at least ${TICKET.minSecretBytes} bytes`);
  }
  return secrets;
}

const hmac = (secret: Buffer, text: string): Buffer => createHmac('sha256', secret).update(text).digest();

/**
 * A device as tickets and counts know it: a keyed hash of its bucket id (the first-party cookie
 * that picks its releases), the same for every ticket that device gets and meaningless without
 * the secret. null (no cookie): the page load stands for its device.
 */
export function deviceTag(secrets: Buffer[], bucketId: string | null | undefined): string | null {
  const [secret] = secrets;
  if (!bucketId || !secret) return null;
  return hmac(secret, `device\0${bucketId}`).subarray(0, 16).toString('base64url');
}

/**
 * A signed ticket for one page load. `secrets`: ticketSecrets(); `releases`: what the page may
 * report on, each remote's release as given and the stable it would fall back to; `device`:
 * deviceTag() of the page's device; `now` in ms; `pageLoad`: a fresh random id unless given.
 */
export function issueTicket({
  secrets,
  releases,
  device = null,
  network = '',
  now = Date.now(),
  pageLoad = randomBytes(16).toString('base64url'),
}: {
  secrets: Buffer[];
  releases: TicketRelease[];
  device?: string | null;
  network?: string;
  now?: number;
  pageLoad?: string;
}): string {
  const [secret] = secrets;
  if (!secret) throw new Error('a ticket needs a secret (ticketSecrets())');
  if (releases.length === 0 || releases.length > TICKET.maxReleases) throw new Error(`a ticket names 1 to ${TICKET.maxReleases} releases`);
  const payload = Buffer.from(
    JSON.stringify({ v: 2, id: pageLoad, at: now, d: device, n: network, r: releases.map(({ remote, version, channel }) => [remote, version, channel]) }),
  ).toString('base64url');
  const ticket = `${payload}.${hmac(secret, payload).toString('base64url')}`;
  if (ticket.length > TICKET.maxLength) throw new Error(`a ticket over ${TICKET.maxLength} characters would be refused`);
  return ticket;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const ID = /^[A-Za-z0-9_-]{16,64}$/;
const NETWORK = /^[A-Za-z0-9_-]{16}$/;

function signedBy(secrets: Buffer[], payload: string, signature: Buffer): boolean {
  let found = false;
  // Every secret is tried, whichever matches, so the time taken says nothing about which did.
  for (const secret of secrets) {
    const expected = hmac(secret, payload);
    if (signature.length === expected.length && timingSafeEqual(signature, expected)) found = true;
  }
  return found;
}

const isNamedRelease = (release: unknown): release is [string, string, string] =>
  Array.isArray(release) && release.length === 3 && release.every((part) => typeof part === 'string');

function parsePayload(payload: string): Ticket | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { v, id, at, d, n, r } = (value ?? {}) as Record<string, unknown>;
  if (typeof n !== 'string' || (n !== '' && !NETWORK.test(n))) return null;
  if (v !== 2 || typeof id !== 'string' || !ID.test(id) || typeof at !== 'number' || !Number.isSafeInteger(at)) return null;
  if (d !== null && (typeof d !== 'string' || !ID.test(d))) return null;
  if (!Array.isArray(r) || r.length === 0 || r.length > TICKET.maxReleases) return null;
  if (!r.every(isNamedRelease)) return null;
  return { pageLoad: id, issuedAt: at, device: d, network: n, releases: r.map(([remote, version, channel]) => ({ remote, version, channel })) };
}

/** Checks a ticket, as the report's batch carried it: its signature (timing-safe, against every secret), then its age. */
export function verifyTicket(
  ticket: unknown,
  { secrets, now = Date.now(), maxAgeMs = TICKET.maxAgeMs }: { secrets: Buffer[]; now?: number; maxAgeMs?: number },
): TicketCheck {
  if (typeof ticket !== 'string' || ticket.length > TICKET.maxLength) return { ok: false, reason: 'malformed' };
  const parts = ticket.split('.');
  if (parts.length !== 2 || !parts.every((part) => BASE64URL.test(part))) return { ok: false, reason: 'malformed' };
  const [payload = '', signature = ''] = parts;
  const signatureBytes = Buffer.from(signature, 'base64url');
  // One spelling per ticket: base64url's last character has spare bits, and a ticket written
  // another way would be another key for the front door's routing (and a replay on another instance).
  if (signatureBytes.toString('base64url') !== signature) return { ok: false, reason: 'signature' };
  // The signature first: nothing an outsider wrote is parsed.
  if (!signedBy(secrets, payload, signatureBytes)) return { ok: false, reason: 'signature' };
  const parsed = parsePayload(payload);
  if (!parsed) return { ok: false, reason: 'malformed' };
  if (parsed.issuedAt > now + TICKET.skewMs) return { ok: false, reason: 'future' };
  if (now - parsed.issuedAt > maxAgeMs) return { ok: false, reason: 'expired' };
  return { ok: true, ticket: parsed };
}

/** Whether a report's remote, release and channel are ones the (verified) ticket names. */
export const ticketCovers = (ticket: Ticket, { remote, release, channel }: Reported): boolean =>
  ticket.releases.some((named) => named.remote === remote && named.version === release && named.channel === channel);

/**
 * The key one page load's reports on one release are counted under: the page load id's first 72
 * bits (random, so as good as the whole to tell page loads apart) and the release, kept short
 * because a busy instance remembers hundreds of thousands of them.
 */
export const pageLoadKey = (ticket: Ticket, { remote, release, channel }: Reported): string =>
  `${ticket.pageLoad.slice(0, 12)}${remote.slice(7, 9)}${release}${channel[0] ?? ''}`;

// What the memo keeps of a page load's release: when it may go, and bits for what was counted.
const COUNTED = 1;
const WAS_LOADED = 2;
const LATE_FAILURE = 4;
const VITAL_BITS: Record<string, number> = { lcp: 8, inp: 16, cls: 32 };
const FLAGS = 64;
// Per page load and remote (contradicts()): which way its reports moved the releases.
const OTHER_LOADED = 1;
const OTHER_FAILED = 2;
const STABLE_FAILED = 4;
const pack = (expiresMs: number, flags: number) => Math.ceil(expiresMs / 1000) * FLAGS + flags;
const expiresOf = (entry: number) => Math.floor(entry / FLAGS) * 1000;
const flagsOf = (entry: number) => entry % FLAGS;
const vitalBit = (name: string) => VITAL_BITS[name] ?? 0;

/**
 * Each page load counted once per release. The browser sends, per release and page load, one
 * session (its outcome), at most one failure after a session that went out as `loaded`
 * (shell/src/health/reports.ts), and vitals each at most once; claim() passes exactly that and
 * drops the rest, so a ticket replayed a hundred times counts as the one page load it was.
 * Entries (a number each) last as long as their ticket could still verify; at `maxEntries`
 * (pruned first, at most once a second) new page loads are refused rather than old ones
 * forgotten, which would let a forgotten one count again. A million entries take about 70 MB.
 */
export function createPageLoadMemo({ maxEntries = 1_000_000, maxAgeMs = TICKET.maxAgeMs }: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const entries = new Map<string, number>();
  let prunedAt = -Infinity;

  function prune(now: number) {
    if (now - prunedAt < 1000) return;
    prunedAt = now;
    for (const [key, entry] of entries) if (expiresOf(entry) <= now) entries.delete(key);
  }

  return {
    get size() {
      return entries.size;
    },
    /**
     * What of this report counts: `{ outcome?, replaces?, vitals? }` (replaces: 'loaded' for the
     * one failure after a loaded session, whose count it corrects), or null when nothing does.
     * The report must be one the ticket covers (ticketCovers).
     */
    claim(ticket: Ticket, report: Reported, now = Date.now()): Claimed | null {
      const key = pageLoadKey(ticket, report);
      let entry = entries.get(key);
      if (entry === undefined) {
        if (entries.size >= maxEntries) prune(now);
        if (entries.size >= maxEntries) return null;
        entry = pack(ticket.issuedAt + maxAgeMs + TICKET.skewMs, 0);
      }
      let flags = flagsOf(entry);
      const counted: Claimed = {};
      if (report.outcome !== undefined) {
        if (!(flags & COUNTED)) {
          flags |= COUNTED | (report.outcome === 'loaded' ? WAS_LOADED : 0);
          counted.outcome = report.outcome;
        } else if (flags & WAS_LOADED && report.outcome !== 'loaded' && !(flags & LATE_FAILURE)) {
          flags |= LATE_FAILURE;
          Object.assign(counted, { outcome: report.outcome, replaces: 'loaded' });
        }
      }
      const fresh = Object.entries(report.vitals ?? {}).filter(([name]) => !(flags & vitalBit(name)));
      if (fresh.length > 0) {
        for (const [name] of fresh) flags |= vitalBit(name);
        counted.vitals = Object.fromEntries(fresh);
      }
      entries.set(key, pack(expiresOf(entry), flags));
      return Object.keys(counted).length > 0 ? counted : null;
    },
    /**
     * One report, one release: per remote a page load uses the release it was given, or the
     * stable after that one fell back. So a page load whose canary (or pin) loaded and was never
     * reported failing used no stable of that remote, and a report of its stable failing is a
     * lie meant to shield the canary (it would make the stable look worse and the canary better
     * in one go). True when this batch, with what the page load reported before, says both: the
     * batch is then refused whole and nothing of it remembered. Otherwise what it says is kept.
     */
    contradicts(ticket: Ticket, reports: readonly Reported[], now = Date.now()): boolean {
      const states = new Map<string, { key: string; entry: number | undefined; flags: number }>();
      for (const report of reports) {
        if (report.outcome === undefined) continue;
        const key = `${ticket.pageLoad.slice(0, 12)}${report.remote.slice(7, 9)}#`;
        let state = states.get(key);
        if (!state) {
          const entry = entries.get(key);
          state = { key, entry, flags: entry === undefined ? 0 : flagsOf(entry) };
          states.set(key, state);
        }
        const failed = report.outcome !== 'loaded';
        if (report.channel === 'stable') state.flags |= failed ? STABLE_FAILED : 0;
        else if (failed) state.flags = (state.flags | OTHER_FAILED) & ~OTHER_LOADED;
        else if (!(state.flags & OTHER_FAILED)) state.flags |= OTHER_LOADED;
      }
      const both = OTHER_LOADED | STABLE_FAILED;
      if ([...states.values()].some(({ flags }) => (flags & both) === both)) return true;
      for (const { key, entry, flags } of states.values()) {
        if (entry === undefined && entries.size >= maxEntries) prune(now);
        entries.set(key, pack(entry === undefined ? ticket.issuedAt + maxAgeMs + TICKET.skewMs : expiresOf(entry), flags));
      }
      return false;
    },
  };
}

/**
 * The key a device's reports on one release are counted under, per hour of DEVICE_CAP: sessions
 * (reports with an outcome) apart from vitals-only reports, each kind capped on its own.
 */
export const deviceKey = (device: string, { remote, release, channel, outcome }: Reported, now = Date.now(), windowMs: number = DEVICE_CAP.windowMs): string =>
  `${device.slice(0, 12)}${remote.slice(7, 9)}${release}${channel[0] ?? ''}${outcome === undefined ? 'v' : 's'}\0${Math.floor(now / windowMs)}`;

/**
 * How many of `offered` sessions a device may still count toward the guard for one release this
 * hour, with `counted` counted already. Pure, so a store can apply it to its own counts.
 */
export function sessionsAllowed({ counted, offered = 1, cap = DEVICE_CAP.sessions }: { counted: number; offered?: number; cap?: number }): number {
  return Math.max(0, Math.min(offered, cap - counted));
}

/**
 * The per-device cap in memory: take() says whether one more session (or vitals-only report) of
 * this device and release counts this hour. Hours past are dropped as the clock moves on; at `maxEntries` new devices are
 * refused, as the page-load memo refuses new page loads.
 */
export function createDeviceCounter({
  cap = DEVICE_CAP.sessions,
  windowMs = DEVICE_CAP.windowMs,
  maxEntries = 500_000,
}: { cap?: number; windowMs?: number; maxEntries?: number } = {}) {
  const counts = new Map<string, number>();
  let hour = -Infinity;
  return {
    get size() {
      return counts.size;
    },
    take(ticket: Ticket, report: Reported, now = Date.now()): boolean {
      const current = Math.floor(now / windowMs);
      if (current !== hour) {
        hour = current;
        const suffix = `\0${current}`;
        for (const key of counts.keys()) if (!key.endsWith(suffix)) counts.delete(key);
      }
      // Tickets without a device share one device's cap: no device is no way around it.
      const key = deviceKey(ticket.device ?? NO_DEVICE, report, now, windowMs);
      const counted = counts.get(key) ?? 0;
      if (sessionsAllowed({ counted, cap }) === 0) return false;
      if (!counts.has(key) && counts.size >= maxEntries) return false;
      counts.set(key, counted + 1);
      return true;
    },
  };
}
