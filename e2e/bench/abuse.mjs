// `npm run bench:abuse`: can one misbehaving client take the site from everyone else? While an
// attacker does one thing at a time, a well-behaved visitor asks for / every 250 ms (a new
// connection each time, as a visitor arriving would) and this prints how many of its requests were
// answered, how fast, and how the shell server's memory moved (docs/limits.md):
//  - quiet: the visitor alone, for comparison;
//  - idle sockets: 520 connections from one address that send nothing, each reopened when the
//    server closes it;
//  - pipelined renders: 50 connections from one address, each pipelining 60 member requests of
//    /browse, sent again on a new connection once answered (or closed) until the time is up; and
//    the same with 16 each (pipeline16), as deep as a server here lets one connection go;
//  - junk reports: POSTs the collector must refuse (not JSON, an empty batch, an unknown field, a
//    wrong content type, an oversized body) at 50/s, with 10 valid reports from the same address
//    (another page behind the same NAT) spread over the same time. The valid ones are real
//    'loaded' sessions of the remotes' stable builds in the site's release-health store;
//  - forged reports (forged): 40 batches of 50 invented failed sessions from one client that loads
//    no page, then 40 with a ticket signed with another key, 40 with a real ticket that does not
//    name the release they report on, and one real page load's batch replayed 100 times; printed
//    with how many sessions the site counted meanwhile (its /metrics, or the --metrics origins:
//    behind the front door, the instances' own ports).
// Targets (issue 26): the visitor gets ≥ 95 % answers with p99 ≤ 500 ms and the server's RSS grows
// by ≤ 150 MB during each attack; junk keeps none of the 10 valid reports out; forged reports count
// no session but the one real page load's. --check exits 1 when one is missed (check.mjs).
//
//   npm run bench:abuse -- [--target http://localhost:8080] [--reuse] [--pid N] [--duration 15]
//                          [--only quiet,idle,pipeline,pipeline16,junk,forged] [--metrics <origin>,…] [--check]
//
// Without --reuse it builds and starts the site as `npm start` does, measures it and stops it.
// --target (or NETNET_ABUSE_TARGET) measures a site already running there instead (implies
// --reuse), e.g. the front door of `npm run start:cluster`; --pid names the process whose memory
// is read (default: whoever listens on the target's port). Loopback only: the target must resolve
// to 127.0.0.0/8, and the attackers send from 127.0.0.2–127.0.0.5 so that the visitor (127.0.0.1)
// is another client. Every scenario stops by itself (its duration, a cap on connections opened),
// and the whole run gives up after 5 minutes.
import { fork } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { checkExitCode, mark } from './check.mjs';
import { percentile } from './steadyLoad.mjs';
import { howRendered, keepSite, site, startSite } from './site.mjs';

const DEVICE = 'abuse-device-3b7d2c91';
const MEMBER = 'abuse-member-e04f6a18';
const VISITOR = '127.0.0.1';
const IDLE_FROM = '127.0.0.2';
const PIPELINE_FROM = '127.0.0.3';
const JUNK_FROM = '127.0.0.5';

const IDLE_SOCKETS = 520;
const MAX_IDLE_OPENS = 60_000;
const REOPEN_AFTER_MS = 20;
const PIPELINE_CONNECTIONS = 50;
const PIPELINE_DEPTH = 60;
const ALLOWED_DEPTH = 16;
const MAX_PIPELINE_WAVES = 200;
const SAMPLE_EVERY = 10;
const VISITOR_EVERY_MS = 250;
const VISITOR_TIMEOUT_MS = 5_000;
const JUNK_PER_SECOND = 50;
const VALID_REPORTS = 10;
const WHOLE_RUN_MS = 5 * 60_000;

const TARGETS = { answeredShare: 0.95, p99Ms: 500, rssGrowthMb: 150, validKept: VALID_REPORTS };

function options(argv) {
  const value = (flag) => {
    const at = argv.indexOf(flag);
    return at === -1 ? undefined : argv[at + 1];
  };
  const positive = (flag, fallback) => {
    const raw = value(flag);
    if (raw === undefined) return fallback;
    const number = Number(raw);
    if (!Number.isFinite(number) || number <= 0 || number > 120) throw new Error(`${flag} needs a number of seconds from 1 to 120`);
    return number;
  };
  const target = value('--target') ?? process.env.NETNET_ABUSE_TARGET;
  const only = value('--only')?.split(',') ?? ['quiet', 'idle', 'pipeline', 'pipeline16', 'junk', 'forged'];
  const pid = value('--pid');
  const metrics = value('--metrics')?.split(',');
  return {
    target: target ?? site.readSite().shellUrl,
    reuse: argv.includes('--reuse') || target !== undefined,
    pid: pid === undefined ? null : Number(pid),
    duration: positive('--duration', 15),
    only: new Set(only),
    metrics: metrics ?? null,
  };
}

/** The target's loopback IPv4 address, or an error: this benchmark attacks nothing but this machine. */
async function loopbackTarget(url) {
  const { hostname, port, protocol } = new URL(url);
  if (protocol !== 'http:') throw new Error(`${url}: only http:// targets (the front door's TLS is not this benchmark's business)`);
  const addresses = await lookup(hostname.replace(/^\[|\]$/g, ''), { all: true });
  const v4 = addresses.filter((a) => a.family === 4);
  if (!addresses.length || !addresses.every((a) => a.address.startsWith('127.') || a.address === '::1') || !v4.length) {
    throw new Error(`${url} does not resolve to loopback only (${addresses.map((a) => a.address).join(', ')}): refusing to attack it`);
  }
  return { address: v4[0].address, port: Number(port || 80), host: new URL(url).host };
}

/** The pid of the process listening on `port` (from /proc: the socket's inode among its descriptors). */
function listenerPid(port) {
  const inodes = new Set();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (parseInt(fields[1].split(':').at(-1), 16) === port && fields[3] === '0A') inodes.add(fields[9]);
    }
  }
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (socket && inodes.has(socket[1])) return Number(pid);
      } catch {
        // closed while we looked
      }
    }
  }
  return null;
}

const rssMb = (pid) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

/** RSS every 250 ms while `during` runs: before, peak, at the end and 5 s later. */
async function watchMemory(pid, during) {
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
  try {
    const result = await during();
    const end = rssMb(pid);
    await sleep(5_000);
    return { result, memory: { beforeMb: before, peakMb: Math.max(peak, end), endMb: end, laterMb: rssMb(pid) } };
  } finally {
    clearInterval(timer);
  }
}

function decode(body, encoding) {
  try {
    if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
    if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
    return body.toString('utf8');
  } catch {
    return '';
  }
}

/** The visitor: GET / every 250 ms for `seconds`, each on a new connection from 127.0.0.1. */
async function visitor(target, seconds) {
  const samples = [];
  const pending = [];
  const count = Math.round((seconds * 1000) / VISITOR_EVERY_MS);
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const wait = started + i * VISITOR_EVERY_MS - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(
      new Promise((resolve) => {
        const due = performance.now();
        const request = http.get(
          {
            host: target.address,
            port: target.port,
            localAddress: VISITOR,
            path: '/',
            agent: false,
            headers: { host: target.host, cookie: `netnet-device=${DEVICE}`, 'accept-encoding': 'br, gzip' },
          },
          (response) => {
            const chunks = [];
            response.on('data', (chunk) => chunks.push(chunk));
            response.on('end', () => {
              const html = decode(Buffer.concat(chunks), response.headers['content-encoding']);
              resolve({ status: response.statusCode, ms: performance.now() - due, server: howRendered(html).server });
            });
            response.on('error', () => resolve({ status: null, ms: null, server: false }));
          },
        );
        let connectedMs = null;
        request.on('socket', (socket) => socket.once('connect', () => (connectedMs = performance.now() - due)));
        request.setTimeout(VISITOR_TIMEOUT_MS, () => request.destroy(new Error(connectedMs === null ? 'timeout before the connection was accepted' : 'timeout after connecting')));
        request.on('error', (error) => resolve({ status: null, ms: null, server: false, error: error.message }));
      }).then((sample) => samples.push(sample)),
    );
  }
  await Promise.all(pending);
  const answered = samples.filter((s) => s.status === 200);
  const times = answered.map((s) => s.ms);
  return {
    sent: samples.length,
    answered: answered.length,
    serverRendered: answered.filter((s) => s.server).length,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    maxMs: times.length ? Math.max(...times) : null,
    errors: [...new Set(samples.filter((s) => s.error).map((s) => s.error))].slice(0, 3),
  };
}

/** 520 sockets from one address that never send a byte, each reopened when the server drops it. */
async function idleSockets(target, seconds) {
  const stats = { opened: 0, refusedOrReset: 0, lifetimesMs: [] };
  const sockets = new Set();
  const deadline = Date.now() + seconds * 1000;
  const open = () => {
    if (Date.now() >= deadline || stats.opened >= MAX_IDLE_OPENS) return;
    stats.opened += 1;
    const socket = net.connect({ host: target.address, port: target.port, localAddress: IDLE_FROM });
    sockets.add(socket);
    // The kernel completes the handshake before the server accepts, so 'connect' says little;
    // how long the socket then lives until the server drops it is what the limits decide.
    let connectedAt = null;
    socket.on('connect', () => (connectedAt = performance.now()));
    socket.on('data', () => {}); // nothing is expected: a silent connection is closed without an answer
    socket.on('error', () => (stats.refusedOrReset += 1));
    socket.on('close', () => {
      sockets.delete(socket);
      if (connectedAt !== null && Date.now() < deadline) stats.lifetimesMs.push(performance.now() - connectedAt);
      setTimeout(open, REOPEN_AFTER_MS);
    });
  };
  for (let i = 0; i < IDLE_SOCKETS; i += 1) open();
  await sleep(seconds * 1000);
  for (const socket of sockets) socket.destroy();
  const { lifetimesMs, ...rest } = stats;
  return { ...rest, dropped: lifetimesMs.length, lifetimeP50Ms: percentile(lifetimesMs, 50), lifetimeP99Ms: percentile(lifetimesMs, 99), lifetimeMaxMs: lifetimesMs.length ? Math.max(...lifetimesMs) : null };
}

/**
 * Reads HTTP/1.1 responses off a raw socket: status, headers and body of each, interim (1xx)
 * responses skipped. Enough for what the servers here send: Content-Length or chunked bodies.
 */
function responseReader(onResponse) {
  let buffer = Buffer.alloc(0);
  let head = null;
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!head) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end === -1) return;
        const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        head = { status: Number(lines[0].split(' ')[1]), headers };
        buffer = buffer.subarray(end + 4);
        if (head.status < 200) {
          head = null;
          continue;
        }
      }
      let body;
      if (head.headers['transfer-encoding'] === 'chunked') {
        const parts = [];
        let at = 0;
        let done = false;
        for (;;) {
          const eol = buffer.indexOf('\r\n', at);
          if (eol === -1) break;
          const size = parseInt(buffer.subarray(at, eol).toString('latin1'), 16);
          if (buffer.length < eol + 2 + size + 2) break;
          if (size === 0) {
            at = eol + 4;
            done = true;
            break;
          }
          parts.push(buffer.subarray(eol + 2, eol + 2 + size));
          at = eol + 2 + size + 2;
        }
        if (!done) return;
        body = Buffer.concat(parts);
        buffer = buffer.subarray(at);
      } else {
        const length = Number(head.headers['content-length'] ?? 0);
        if (buffer.length < length) return;
        body = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
      }
      onResponse(head, body);
      head = null;
    }
  };
}

/** 50 connections from one address, each pipelining `depth` member requests of /browse, again and again. */
async function pipelinedRenders(target, seconds, depth = PIPELINE_DEPTH) {
  const request =
    `GET /browse HTTP/1.1\r\nHost: ${target.host}\r\nCookie: netnet-device=${DEVICE}; netnet-member=${MEMBER}\r\n` +
    'Accept-Encoding: br, gzip\r\nUser-Agent: netnet-bench-abuse\r\n\r\n';
  const stats = { waves: 0, sentBytes: 0, answered: 0, serverRendered: 0, browserRendered: 0, other: {}, cutOff: 0 };
  const deadline = Date.now() + seconds * 1000;
  const sockets = new Set();
  const wave = () =>
    new Promise((resolve) => {
      stats.waves += 1;
      let got = 0;
      const socket = net.connect({ host: target.address, port: target.port, localAddress: PIPELINE_FROM }, () => {
        const all = request.repeat(depth);
        stats.sentBytes += all.length;
        socket.write(all);
      });
      sockets.add(socket);
      socket.on(
        'data',
        responseReader((head, body) => {
          got += 1;
          if (head.status === 200) {
            stats.answered += 1;
            // One answer in SAMPLE_EVERY is opened to see how it was made: decompressing them all
            // would take this process's share of the cores from the server.
            if (stats.answered % SAMPLE_EVERY === 0) {
              if (howRendered(decode(body, head.headers['content-encoding'])).server) stats.serverRendered += 1;
              else stats.browserRendered += 1;
            }
          } else stats.other[head.status] = (stats.other[head.status] ?? 0) + 1;
          if (got === depth) socket.end();
        }),
      );
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        if (got < depth) stats.cutOff += depth - got;
        resolve();
      });
    });
  const lane = async () => {
    while (Date.now() < deadline && stats.waves < MAX_PIPELINE_WAVES * PIPELINE_CONNECTIONS) await wave();
  };
  const lanes = Array.from({ length: PIPELINE_CONNECTIONS }, lane);
  await sleep(seconds * 1000);
  // What is still on its way is not waited for: the time is up.
  for (const socket of sockets) socket.destroy();
  await Promise.all(lanes);
  return stats;
}

function post(target, { headers = {}, body }) {
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: target.address,
        port: target.port,
        localAddress: JUNK_FROM,
        method: 'POST',
        path: '/health/reports',
        agent: false,
        headers: { host: target.host, origin: `http://${target.host}`, 'sec-fetch-site': 'same-origin', 'content-type': 'text/plain;charset=UTF-8', ...headers },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      },
    );
    request.setTimeout(VISITOR_TIMEOUT_MS, () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve(null));
    request.end(body);
  });
}

/** A page load's release-health ticket, as the site gives one to a running page (POST /health/ticket), from JUNK_FROM. */
function pageTicket(target) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.address,
        port: target.port,
        localAddress: JUNK_FROM,
        method: 'POST',
        path: '/health/ticket',
        agent: false,
        headers: { host: target.host, origin: `http://${target.host}`, 'sec-fetch-site': 'same-origin', cookie: `netnet-device=${randomBytes(16).toString('hex')}` },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => (response.statusCode === 200 ? resolve(JSON.parse(body).ticket) : reject(new Error(`POST /health/ticket: ${response.statusCode}`))));
      },
    );
    request.setTimeout(VISITOR_TIMEOUT_MS, () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end();
  });
}

/** Every session the site counted so far (netnet_health_reports_total over `origins`' /metrics), or null when one hides it. */
async function countedSessions(origins) {
  let total = 0;
  for (const origin of origins) {
    const response = await fetch(`${origin}/metrics`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
    if (!response?.ok) return null;
    for (const line of (await response.text()).split('\n')) {
      if (line.startsWith('netnet_health_reports_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return total;
}

/** What an outsider's invented reports get, and how many sessions the site counted meanwhile. */
async function forgedReports(target, metricsOrigins) {
  const { remotes } = await (await fetch(`http://${target.host}/remotes.json`, { signal: AbortSignal.timeout(10_000) })).json();
  const ticket = await pageTicket(target);
  const remote = 'remote-title';
  const release = remotes[remote].stable.version;
  const invented = Array.from({ length: 50 }, () => ({ remote, release, channel: 'canary', outcome: 'fell-back' }));
  // A ticket as the site's would look, signed with a key of the attacker's own.
  const payload = Buffer.from(JSON.stringify({ v: 1, id: randomBytes(16).toString('base64url'), at: Date.now(), d: null, r: [[remote, release, 'canary']] })).toString('base64url');
  const forged = `${payload}.${createHmac('sha256', randomBytes(32)).update(payload).digest('base64url')}`;
  const replayed = JSON.stringify({ ticket, reports: [{ remote, release, channel: 'stable', outcome: 'loaded' }] });
  const cases = [
    ['40 batches of 50 invented sessions, no ticket', 40, JSON.stringify({ reports: invented })],
    ['40 batches with a ticket signed with another key', 40, JSON.stringify({ ticket: forged, reports: invented })],
    ['40 batches with a real ticket not naming the release', 40, JSON.stringify({ ticket, reports: invented })],
    ['one page load’s real batch replayed 100 times', 100, replayed],
  ];
  const before = await countedSessions(metricsOrigins);
  const rows = [];
  for (const [label, times, body] of cases) {
    const statuses = {};
    for (let i = 0; i < times; i += 1) {
      const status = await post(target, { body });
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    rows.push({ label, statuses });
  }
  await sleep(500);
  const after = await countedSessions(metricsOrigins);
  return { rows, counted: before === null || after === null ? null : after - before, sessionsOffered: 3 * 40 * 50 + 100 };
}

/** Junk at 50/s and 10 valid reports from the same address, over `seconds`. */
async function junkReports(target, seconds) {
  // Each valid report is another page load's, with its own ticket.
  const { remotes } = await (await fetch(`http://${target.host}/remotes.json`, { signal: AbortSignal.timeout(10_000) })).json();
  const tickets = [];
  for (let i = 0; i < VALID_REPORTS; i += 1) tickets.push(await pageTicket(target));
  const remote = 'remote-title';
  const release = remotes[remote].stable.version;
  const validOf = (ticket) => JSON.stringify({ ticket, reports: [{ remote, release, channel: 'stable', outcome: 'loaded' }] });
  const valid = validOf(tickets[0]);
  const junk = [
    { body: 'not json' },
    { body: '{"reports":[]}' },
    { body: JSON.stringify({ reports: [{ remote, release, channel: 'stable', outcome: 'loaded', uid: 'someone' }] }) },
    { body: valid, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { body: 'x'.repeat(17 * 1024) },
  ];
  const junkStatuses = {};
  const validStatuses = [];
  const sent = [];
  const total = Math.round(JUNK_PER_SECOND * seconds);
  const validEvery = Math.floor(total / VALID_REPORTS);
  const started = performance.now();
  for (let i = 0; i < total; i += 1) {
    const wait = started + (i * 1000) / JUNK_PER_SECOND - performance.now();
    if (wait > 0) await sleep(wait);
    sent.push(post(target, junk[i % junk.length]).then((status) => (junkStatuses[status] = (junkStatuses[status] ?? 0) + 1)));
    if (i % validEvery === Math.floor(validEvery / 2) && validStatuses.length < VALID_REPORTS) {
      validStatuses.push(post(target, { body: validOf(tickets[validStatuses.length]) }));
    }
  }
  await Promise.all(sent);
  const statuses = await Promise.all(validStatuses);
  return { junkSent: total, junkStatuses, validSent: statuses.length, validKept: statuses.filter((s) => s === 204).length, validStatuses: statuses };
}

const f0 = (v) => (v == null ? '–' : String(Math.round(v)));

const ATTACKS = { idleSockets, pipelinedRenders };

/**
 * Runs an attack in a process of its own, so that the attacker's work (thousands of sockets and
 * answers) never delays the visitor's timings in this one.
 */
function inChild([attack, ...args], target, seconds) {
  const name = Object.keys(ATTACKS).find((key) => ATTACKS[key] === attack);
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--attack', name, JSON.stringify({ target, seconds, args })]);
    let result = null;
    child.once('message', (message) => (result = message));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`the ${name} attacker exited ${code} without figures`))));
    // Bounded even if the child hangs: its own time, then a grace.
    setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000).unref();
  });
}

/** In the attacker's process: run it, hand its figures back, stop. */
async function attackerMain(argv) {
  const { target, seconds, args } = JSON.parse(argv[argv.indexOf('--attack') + 2]);
  const stats = await ATTACKS[argv[argv.indexOf('--attack') + 1]](target, seconds, ...args);
  process.send(stats, () => process.exit(0));
}

async function run() {
  const opts = options(process.argv.slice(2));
  const log = (line) => console.log(line);
  setTimeout(() => {
    console.error(`bench:abuse gave up after ${WHOLE_RUN_MS / 60_000} minutes.`);
    process.exit(2);
  }, WHOLE_RUN_MS).unref();
  const target = await loopbackTarget(opts.target);
  const ownSite = keepSite('bench:abuse');
  const started = await startSite({ reuse: opts.reuse, log, env: { NETNET_SSR: undefined } });
  ownSite.hold(started);
  const pid = opts.pid ?? listenerPid(target.port) ?? started.pid;
  if (!pid) throw new Error(`No process of ours listens on port ${target.port}: pass --pid.`);
  const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  const { duration } = opts;
  log(`Target ${opts.target} (${target.address}:${target.port}); memory of pid ${pid} (${command}); ${availableParallelism()} cores, Node ${process.version}.`);
  // Warm: the first renders after a start load the server builds.
  for (let i = 0; i < 20; i += 1) await fetch(`http://${target.host}/`, { headers: { cookie: `netnet-device=${DEVICE}` } }).then((r) => r.text());

  const rows = [];
  const scenario = async (key, label, attack) => {
    if (!opts.only.has(key)) return;
    log(`${label} (${duration} s)…`);
    const { result, memory } = await watchMemory(pid, async () => {
      const [seen, attacker] = await Promise.all([visitor(target, duration), attack ? inChild(attack, target, duration) : null]);
      return { seen, attacker };
    });
    rows.push({ key, label, ...result, memory });
    await sleep(2_000); // let the server settle before the next one
  };
  await scenario('quiet', 'quiet: the visitor alone');
  await scenario('idle', `idle sockets: ${IDLE_SOCKETS} from ${IDLE_FROM}, reopened when dropped`, [idleSockets]);
  await scenario('pipeline', `pipelined renders: ${PIPELINE_CONNECTIONS} × ${PIPELINE_DEPTH} member /browse from ${PIPELINE_FROM}`, [pipelinedRenders, PIPELINE_DEPTH]);
  await scenario('pipeline16', `pipelined renders: ${PIPELINE_CONNECTIONS} × ${ALLOWED_DEPTH} member /browse from ${PIPELINE_FROM}`, [pipelinedRenders, ALLOWED_DEPTH]);
  let junk = null;
  if (opts.only.has('junk')) {
    log(`junk reports: ${JUNK_PER_SECOND}/s and ${VALID_REPORTS} valid from ${JUNK_FROM} (10 s)…`);
    junk = await junkReports(target, 10);
  }
  let forged = null;
  if (opts.only.has('forged')) {
    log('forged reports from one client that loads no page…');
    forged = await forgedReports(target, opts.metrics ?? [`http://${target.host}`]);
  }
  await ownSite.stopNow();

  log('');
  log(`Netnet abuse benchmark — ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}, target ${opts.target}, ${availableParallelism()} cores, Node ${process.version}`);
  log(`The visitor: GET / every ${VISITOR_EVERY_MS} ms from ${VISITOR}, a new connection each, ${VISITOR_TIMEOUT_MS / 1000} s timeout. RSS of pid ${pid}.`);
  log('');
  const header = ['scenario', 'answered', 'server-rendered', 'p50 ms', 'p99 ms', 'max ms', 'RSS before', 'peak', '+MB', '5 s later'];
  const table = rows.map((r) => [
    r.key,
    `${r.seen.answered}/${r.seen.sent}`,
    String(r.seen.serverRendered),
    f0(r.seen.p50Ms),
    f0(r.seen.p99Ms),
    f0(r.seen.maxMs),
    f0(r.memory.beforeMb),
    f0(r.memory.peakMb),
    f0(r.memory.peakMb - r.memory.beforeMb),
    f0(r.memory.laterMb),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  log(line(header));
  log(line(widths.map((w) => '-'.repeat(w))));
  table.forEach((row) => log(line(row)));
  for (const r of rows) {
    if (r.seen.errors.length) log(`  ${r.key}: the visitor's failures: ${r.seen.errors.join('; ')}`);
    if (r.key === 'idle') {
      const a = r.attacker;
      log(
        `  idle: the attacker opened ${a.opened} connections (at most ${MAX_IDLE_OPENS}); ${a.dropped} dropped by the server before the end, after p50 ${f0(a.lifetimeP50Ms)} ms, p99 ${f0(a.lifetimeP99Ms)} ms, at most ${f0(a.lifetimeMaxMs)} ms; ${a.refusedOrReset} refused or reset.`,
      );
    }
    if (r.key.startsWith('pipeline')) {
      const a = r.attacker;
      log(
        `  ${r.key}: ${a.waves} connections, ${(a.sentBytes / 1024).toFixed(0)} KB sent; answered ${a.answered} (of a sample of one in ${SAMPLE_EVERY}: ${a.serverRendered} server-rendered, ${a.browserRendered} left to the browser)` +
          `${Object.keys(a.other).length ? `, other statuses ${JSON.stringify(a.other)}` : ''}; ${a.cutOff} never answered (the connection closed by the server, or at the end).`,
      );
    }
  }
  if (forged) {
    for (const row of forged.rows) log(`  forged: ${row.label}: answered ${JSON.stringify(row.statuses)}`);
    log(`  forged: sessions the site counted meanwhile: ${forged.counted ?? 'not measured (no /metrics: pass --metrics)'} of ${forged.sessionsOffered} offered (1 is the replayed page load's own)`);
  }
  if (junk) log(`  junk: ${junk.junkSent} junk POSTs answered ${JSON.stringify(junk.junkStatuses)}; valid reports: ${junk.validKept} of ${junk.validSent} counted (statuses ${junk.validStatuses.join(', ')}).`);
  log('');
  log('Targets (issue 26):');
  const targets = [];
  for (const r of rows.filter((row) => row.key !== 'quiet')) {
    const share = r.seen.answered / r.seen.sent;
    const growth = r.memory.peakMb - r.memory.beforeMb;
    targets.push(
      { label: `${r.key}: visitor answered ${(share * 100).toFixed(0)} %   target ≥ ${TARGETS.answeredShare * 100} %`, met: share >= TARGETS.answeredShare },
      { label: `${r.key}: visitor p99 ${f0(r.seen.p99Ms)} ms   target ≤ ${TARGETS.p99Ms} ms`, met: r.seen.p99Ms !== null && r.seen.p99Ms <= TARGETS.p99Ms },
      { label: `${r.key}: RSS growth ${f0(growth)} MB   target ≤ ${TARGETS.rssGrowthMb} MB`, met: growth <= TARGETS.rssGrowthMb },
    );
  }
  if (forged) {
    const counted = forged.counted ?? 'not measured (pass --metrics)';
    targets.push({ label: `forged: sessions counted ${counted}   target ≤ 1 (the one real page load)`, met: forged.counted === null ? null : forged.counted <= 1 });
  }
  if (junk) targets.push({ label: `junk: valid reports counted ${junk.validKept} of ${junk.validSent}   target ${TARGETS.validKept}`, met: junk.validKept === TARGETS.validKept });
  for (const { label, met } of targets) log(`  ${mark(met)} ${label}`);
  ownSite.exit(checkExitCode('bench:abuse', targets, log));
}

(process.argv.includes('--attack') ? attackerMain(process.argv) : run()).catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
