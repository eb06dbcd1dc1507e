// `npm run bench:server` (issue 15): how much the shell's server-rendering server takes. Builds and
// starts the production site (server-rendered, as `npm start`), or measures one already running
// with --reuse, then, from this process on loopback:
//  - renders/s and latency of / for a visitor with a fixed device cookie (no Set-Cookie work) and
//    without any cookie, and of /title/604 for a member: autocannon, 50 connections;
//  - / at a steady 300 renders/s, paced here (latency and TTFB counted from when each was due);
//  - TTFB: a few hundred sequential requests, timed to the final response's headers;
//  - memory: the RSS of the process that renders (node --import tsx site/start.mjs) before and after
//    10,000 renders of /, then of /title/604.
// Prints the figures beside issue 15's targets and writes e2e/bench/results/server-<date>.json.
//
//   npm run bench:server -- [--reuse] [--duration 10] [--connections 50] [--renders 10000] [--cpu-prof] [--check]
//
// The load generator shares the machine with the server (and the catalogue it asks): on 2 cores the
// figures are what this machine gives, not what a server alone on it would.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { root } from '../../scripts/build.mjs';
import { checkExitCode } from './check.mjs';
import { median, writeServerResults } from './report.mjs';
import { skipInterimResponses } from './interim.mjs';
import { percentile, steadyLoad } from './steadyLoad.mjs';
import { howRendered, keepSite, site, SITE, siteMode, startSite } from './site.mjs';

// Fixed ids: a known visitor (the server sets no cookie) and a member hint. The hint is all the
// server reads (it never asks Firebase), so no account is needed for it.
const DEVICE = 'bench-device-5c1f0e7a';
const MEMBER = 'bench-member-9a42d6c3';
const VISITOR_COOKIE = `netnet-device=${DEVICE}`;
const MEMBER_COOKIE = `netnet-device=${DEVICE}; netnet-member=${MEMBER}`;
const TITLE = '/title/604';
const FIXED_RATE = 300;
const WARM_UP_RENDERS = 500;
const SEQUENTIAL = 300;
const PROFILES = join(root, 'e2e/bench/results/profiles');

const TARGETS = {
  rendersPerSecond: 300,
  p99Ms: 100,
  ttfbP50Ms: 150,
  rssGrowthMb: 20,
};

function options(argv) {
  const number = (flag, fallback) => {
    const at = argv.indexOf(flag);
    if (at === -1) return fallback;
    const value = Number(argv[at + 1]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} needs a positive number`);
    return value;
  };
  const opts = {
    reuse: argv.includes('--reuse'),
    cpuProf: argv.includes('--cpu-prof'),
    duration: number('--duration', 10),
    connections: number('--connections', 50),
    renders: number('--renders', 10_000),
  };
  if (opts.reuse && opts.cpuProf) throw new Error('--cpu-prof starts the site itself with the profiler on: it cannot be used with --reuse');
  return opts;
}

/** The pid of the process listening on `port`, from /proc (the socket's inode among its descriptors). */
function listenerPid(port) {
  const inodes = new Set();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const localPort = parseInt(fields[1].split(':').at(-1), 16);
      // State 0A is LISTEN.
      if (localPort === port && fields[3] === '0A') inodes.add(fields[9]);
    }
  }
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds;
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
        // the descriptor closed while we looked
      }
    }
  }
  return null;
}

/** VmRSS and VmHWM (peak) of a process, in MB (1 MB = 1024 kB as /proc counts). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024;
  return { rssMb: field('VmRSS'), peakMb: field('VmHWM') };
}

const commandOf = (pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');

/** One autocannon run; the figures this benchmark reports from it. */
async function load({ path, cookie, duration, amount, connections }) {
  const result = await autocannon({
    url: `${SITE}${path}`,
    setupClient: skipInterimResponses,
    connections,
    ...(amount ? { amount } : { duration }),
    headers: { ...(cookie ? { cookie } : {}), 'accept-encoding': 'br, gzip' },
  });
  const ok = result['2xx'];
  return {
    path,
    cookie: cookie ?? null,
    connections,
    rate: null,
    seconds: result.duration,
    renders: ok,
    rendersPerSecond: ok / result.duration,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    kbPerRender: result.requests.total ? result.throughput.total / result.requests.total / 1000 : null,
    generator: 'autocannon',
  };
}

/**
 * One GET, timed from when a socket takes it: the 103 Early Hints if any, the final response's
 * headers, the last byte; `queuedMs`, how long it waited for a socket before that.
 */
function timedGet(path, cookie, agent) {
  return new Promise((resolve, reject) => {
    const called = performance.now();
    let started = called;
    let hintsMs = null;
    const request = http.get(`${SITE}${path}`, { agent, headers: cookie ? { cookie } : {} }, (response) => {
      const headersMs = performance.now() - started;
      response.on('data', () => {});
      response.on('end', () =>
        resolve({ status: response.statusCode, hintsMs, ttfbMs: headersMs, totalMs: performance.now() - started, queuedMs: started - called }),
      );
      response.on('error', reject);
    });
    request.on('socket', () => (started = performance.now()));
    request.on('information', () => (hintsMs ??= performance.now() - started));
    request.on('error', reject);
    request.setTimeout(30_000, () => request.destroy(new Error(`${path} did not answer within 30 s`)));
  });
}

/**
 * / (or another path) at a steady rate over at most `connections` kept-alive sockets; latency
 * counts from when the request was due, so time spent waiting for a free socket is in it.
 */
async function paced({ path, cookie, rate, duration, connections }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const { samples, failures, seconds } = await steadyLoad({
    rate,
    duration,
    send: () =>
      timedGet(path, cookie, agent).then((sample) => ({ ...sample, ttfbMs: sample.ttfbMs + sample.queuedMs, totalMs: sample.totalMs + sample.queuedMs })),
  });
  agent.destroy();
  const totals = samples.map((s) => s.totalMs);
  const ok = samples.filter((s) => s.status === 200).length;
  return {
    path,
    cookie: cookie ?? null,
    connections,
    rate,
    seconds,
    renders: ok,
    rendersPerSecond: ok / seconds,
    p50Ms: percentile(totals, 50),
    p90Ms: percentile(totals, 90),
    p99Ms: percentile(totals, 99),
    maxMs: Math.max(...totals),
    ttfbP50Ms: percentile(samples.map((s) => s.ttfbMs), 50),
    ttfbP99Ms: percentile(samples.map((s) => s.ttfbMs), 99),
    non2xx: samples.length - ok,
    errors: failures.length,
    timeouts: 0,
    kbPerRender: null,
    generator: 'paced http.get',
  };
}


/** Sequential requests, one connection kept alive. */
async function sequential(path, cookie, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const samples = [];
  try {
    while (samples.length < count) samples.push(await timedGet(path, cookie, agent));
  } finally {
    agent.destroy();
  }
  const of = (key) => samples.map((s) => s[key]).filter((v) => v !== null);
  return {
    path,
    requests: samples.length,
    non200: samples.filter((s) => s.status !== 200).length,
    ttfbP50Ms: median(of('ttfbMs')),
    ttfbP99Ms: percentile(of('ttfbMs'), 99),
    totalP50Ms: median(of('totalMs')),
    earlyHintsP50Ms: median(of('hintsMs')),
  };
}

/** The page as this benchmark will ask for it: it must be a server render, for the intended reader. */
async function checkPage(path, cookie, member) {
  const response = await fetch(`${SITE}${path}`, { headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(30_000) });
  const { server, state } = howRendered(await response.text());
  const problems = [];
  if (response.status !== 200) problems.push(`HTTP ${response.status}`);
  if (!server) problems.push('not server-rendered');
  if (member && (state?.member !== MEMBER || state?.redirect)) problems.push(`rendered for ${state?.member ?? 'a visitor'}${state?.redirect ? `, redirected to ${state.redirect.to}` : ''}`);
  if (cookie && response.headers.get('set-cookie')) problems.push(`sets a cookie although the request had one: ${response.headers.get('set-cookie')}`);
  if (problems.length) throw new Error(`${path}${member ? ' (member)' : ''}: ${problems.join('; ')}`);
}

/** Renders `renders` times and reads the RSS around it, after a warm-up. */
async function memoryRun(pid, { path, cookie, connections, renders }) {
  await load({ path, cookie, connections, amount: WARM_UP_RENDERS });
  await sleep(1000);
  const before = memoryOf(pid);
  const run = await load({ path, cookie, connections, amount: renders });
  const after = memoryOf(pid);
  // What is left once the collector has had an idle moment.
  await sleep(5000);
  const later = memoryOf(pid);
  return {
    path,
    renders: run.renders,
    non2xx: run.non2xx,
    errors: run.errors,
    beforeMb: before.rssMb,
    afterMb: after.rssMb,
    laterMb: later.rssMb,
    growthMb: after.rssMb - before.rssMb,
    growthLaterMb: later.rssMb - before.rssMb,
    peakMb: later.peakMb,
  };
}

/** The functions that took the most CPU time (self time) in the profile the site's process wrote. */
function topOfProfile(pid, since) {
  let files = [];
  try {
    files = readdirSync(PROFILES)
      .filter((name) => name.endsWith('.cpuprofile') && name.includes(`.${pid}.`))
      .map((name) => join(PROFILES, name))
      .filter((file) => statSync(file).mtimeMs >= since);
  } catch {
    return null;
  }
  if (!files.length) return null;
  const file = files.sort().at(-1);
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const rootUrl = pathToFileURL(root).href.replace(/\/?$/, '/');
  const idle = [...selfMs].filter(([id]) => byId.get(id).callFrame.functionName === '(idle)').reduce((a, [, ms]) => a + ms, 0);
  const sampled = [...selfMs.values()].reduce((a, b) => a + b, 0);
  // Shares of the time the process was busy: idle time says how hard the load pushed, not where the work went.
  const total = sampled - idle;
  const byFunction = new Map();
  const byPlace = new Map();
  for (const [id, ms] of selfMs) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)') continue;
    const where = url ? `${url.replace(rootUrl, '').replace(/^.*node_modules\//, 'node_modules/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    const place = !url
      ? functionName || '(native)'
      : url.includes('node_modules/')
        ? `node_modules/${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)[1]}`
        : url.startsWith('node:')
          ? 'node internals'
          : url.startsWith(rootUrl)
            ? url.slice(rootUrl.length).split('/').slice(0, 3).join('/')
            : new URL(url).origin;
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, ms]) => ({ name, ms: Math.round(ms), share: ms / total }));
  return { file, sampledMs: Math.round(sampled), busyMs: Math.round(total), functions: top(byFunction, 25), places: top(byPlace, 12) };
}

function commit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const f0 = (v) => (v == null ? '–' : String(Math.round(v)));
const f1 = (v) => (v == null ? '–' : v.toFixed(1));
const mark = (met) => (met ? '✓' : '✗');

function printReport(summary, log) {
  const { loads, ttfb, memory, opts } = summary;
  log('');
  log(`Netnet server benchmark — ${summary.date}, commit ${summary.commit}, Node ${process.version}, ${summary.cores} cores`);
  log(`Shell server: pid ${summary.pid} (${summary.command}), server rendering on; ${SITE}.`);
  log('Load from this process, on the same machine (it and the catalogue service share the cores with the server): autocannon, and');
  log(`the steady-rate run paced by this process with http.get (autocannon's rate limit sends each second's requests at once).`);
  if (opts.cpuProf) log('⚠ The server ran under --cpu-prof: the sampling costs throughput; judge the profile, not these figures.');
  log('');
  const header = ['load', 'conns', 'rate', 'renders/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'KB/render'];
  const rows = loads.map((l) => [
    l.label,
    String(l.connections),
    l.rate ? `${l.rate}/s` : 'max',
    f0(l.rendersPerSecond),
    f1(l.p50Ms),
    f1(l.p90Ms),
    f1(l.p99Ms),
    f0(l.maxMs),
    String(l.non2xx),
    String(l.errors + l.timeouts),
    f1(l.kbPerRender),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  log(line(header));
  log(line(widths.map((w) => '-'.repeat(w))));
  rows.forEach((r) => log(line(r)));
  log(`(${opts.duration} s each after a warm-up. With ${opts.connections} connections each waiting for its answer ("max"), mean latency = ${opts.connections} / renders per second.)`);
  log('');
  log('TTFB (to the final response\'s headers; 103 Early Hints come before them):');
  for (const t of ttfb)
    log(
      `  ${t.label.padEnd(46)} ${String(t.requests).padStart(5)} requests  TTFB p50 ${f1(t.ttfbP50Ms)} ms, p99 ${f1(t.ttfbP99Ms)} ms; whole page p50 ${f1(t.totalP50Ms)} ms` +
        `${t.earlyHintsP50Ms == null ? '' : `; 103 at p50 ${f1(t.earlyHintsP50Ms)} ms`}${t.non200 ? `; ${t.non200} not 200` : ''}`,
    );
  log('');
  log(`Memory (VmRSS of pid ${summary.pid}; MB = 1024 kB), after ${WARM_UP_RENDERS} warm-up renders:`);
  for (const m of memory)
    log(
      `  ${m.label.padEnd(34)} before ${f1(m.beforeMb)} MB, after ${m.renders} renders ${f1(m.afterMb)} MB (${m.growthMb >= 0 ? '+' : ''}${f1(m.growthMb)}), ` +
        `5 s later ${f1(m.laterMb)} MB (${m.growthLaterMb >= 0 ? '+' : ''}${f1(m.growthLaterMb)}); peak ${f1(m.peakMb)} MB${m.non2xx || m.errors ? `; ${m.non2xx} non-2xx, ${m.errors} errors` : ''}`,
    );
  log('');
  log('Targets (issue 15):');
  for (const t of summary.targets) log(`  ${mark(t.met)} ${t.label.padEnd(58)} ${t.value.padStart(9)}   target ${t.limit}`);
  if (summary.profile) {
    const p = summary.profile;
    log('');
    log(
      `CPU profile of the server (${relative(root, p.file)}, whole run: ${(p.sampledMs / 1000).toFixed(1)} s sampled, ${(p.busyMs / 1000).toFixed(1)} s busy), share of busy time, self:`,
    );
    log('  by place:');
    for (const e of p.places) log(`    ${(e.share * 100).toFixed(1).padStart(5)} %  ${e.name}`);
    log('  by function:');
    for (const e of p.functions) log(`    ${(e.share * 100).toFixed(1).padStart(5)} %  ${e.name}`);
  }
}

function judge(loads, ttfb, memory) {
  const visitor = loads.find((l) => l.key === 'visitor');
  const fixed = loads.find((l) => l.key === 'fixed');
  const idle = ttfb.find((t) => t.key === 'idle');
  const target = (label, value, shown, limit, met) => ({ label, value: shown, raw: value, limit, met });
  return [
    target(`/ renders/s (${visitor.connections} connections, device cookie)`, visitor.rendersPerSecond, f0(visitor.rendersPerSecond), `≥ ${TARGETS.rendersPerSecond}`, visitor.rendersPerSecond >= TARGETS.rendersPerSecond),
    target(`/ p99 in that run`, visitor.p99Ms, `${f1(visitor.p99Ms)} ms`, `≤ ${TARGETS.p99Ms} ms`, visitor.p99Ms <= TARGETS.p99Ms),
    target(`/ p99 at a steady ${FIXED_RATE} renders/s (${fixed.connections} connections)`, fixed.p99Ms, `${f1(fixed.p99Ms)} ms`, `≤ ${TARGETS.p99Ms} ms`, fixed.p99Ms <= TARGETS.p99Ms && fixed.non2xx === 0),
    target('/ TTFB p50 (sequential, one at a time)', idle.ttfbP50Ms, `${f1(idle.ttfbP50Ms)} ms`, `≤ ${TARGETS.ttfbP50Ms} ms`, idle.ttfbP50Ms <= TARGETS.ttfbP50Ms),
    ...memory.map((m) =>
      target(`RSS growth over ${m.renders} renders of ${m.label}`, m.growthMb, `${f1(m.growthMb)} MB`, `≤ ${TARGETS.rssGrowthMb} MB`, m.growthMb <= TARGETS.rssGrowthMb),
    ),
  ];
}

async function bench(opts, pid, log) {
  const { connections, duration, renders } = opts;
  await checkPage('/', VISITOR_COOKIE, false);
  await checkPage(TITLE, MEMBER_COOKIE, true);
  log(`Warm-up: ${WARM_UP_RENDERS * 2} renders of / and ${WARM_UP_RENDERS} of ${TITLE}…`);
  await load({ path: '/', cookie: VISITOR_COOKIE, connections, amount: WARM_UP_RENDERS * 2 });
  await load({ path: TITLE, cookie: MEMBER_COOKIE, connections, amount: WARM_UP_RENDERS });

  const loads = [];
  const measure = async (key, label, run) => {
    log(`${label}…`);
    loads.push({ key, label, ...(await run) });
  };
  await measure('visitor', '/ visitor, device cookie', load({ path: '/', cookie: VISITOR_COOKIE, connections, duration }));
  await measure('no-cookie', '/ visitor, no cookie (server sets one)', load({ path: '/', connections, duration }));
  await measure('fixed', `/ visitor, device cookie, steady ${FIXED_RATE}/s`, paced({ path: '/', cookie: VISITOR_COOKIE, rate: FIXED_RATE, duration, connections }));
  await measure('member', `${TITLE} member`, load({ path: TITLE, cookie: MEMBER_COOKIE, connections, duration }));

  log(`TTFB: ${SEQUENTIAL} sequential requests of / and of ${TITLE}…`);
  const fixed = loads.find((l) => l.key === 'fixed');
  const ttfb = [
    { key: 'idle', label: '/ visitor, sequential', ...(await sequential('/', VISITOR_COOKIE, SEQUENTIAL)) },
    {
      key: 'loaded',
      label: `/ visitor, steady ${FIXED_RATE}/s (from when due)`,
      requests: fixed.renders + fixed.non2xx,
      non200: fixed.non2xx,
      ttfbP50Ms: fixed.ttfbP50Ms,
      ttfbP99Ms: fixed.ttfbP99Ms,
      totalP50Ms: fixed.p50Ms,
      earlyHintsP50Ms: null,
    },
    { key: 'member', label: `${TITLE} member, sequential`, ...(await sequential(TITLE, MEMBER_COOKIE, SEQUENTIAL)) },
  ];

  log(`Memory: ${renders} renders of /, then of ${TITLE}…`);
  const memory = [
    { label: '/ (visitor)', ...(await memoryRun(pid, { path: '/', cookie: VISITOR_COOKIE, connections, renders })) },
    { label: `${TITLE} (member)`, ...(await memoryRun(pid, { path: TITLE, cookie: MEMBER_COOKIE, connections, renders })) },
  ];
  return { loads, ttfb, memory };
}

async function run() {
  const opts = options(process.argv.slice(2));
  const log = (line) => console.log(line);
  const ownSite = keepSite('bench:server');
  try {
    const startedAt = Date.now();
    if (opts.cpuProf) mkdirSync(PROFILES, { recursive: true });
    const started = await startSite({
      reuse: opts.reuse,
      log,
      env: { NETNET_SSR: undefined },
      nodeArgs: opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${PROFILES}`] : [],
    });
    ownSite.hold(started);
    if ((await siteMode()) !== 'ssr') throw new Error(`The site on ${SITE} serves client-only pages (NETNET_SSR=off?): there is no server render to measure.`);
    const pid = listenerPid(site.ports.shell) ?? started.pid;
    if (!pid) throw new Error(`No process of ours listens on port ${site.ports.shell}: cannot read the server's memory.`);
    const command = commandOf(pid);
    if (started.pid && pid !== started.pid) log(`⚠ port ${site.ports.shell} is held by pid ${pid} (${command}), not the start.mjs this benchmark started (${started.pid}).`);

    const { loads, ttfb, memory } = await bench(opts, pid, log);
    const summary = {
      date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      commit: commit(),
      cores: availableParallelism(),
      pid,
      command,
      opts,
      loads,
      ttfb,
      memory,
      targets: judge(loads, ttfb, memory),
      profile: null,
    };
    if (opts.cpuProf) {
      log('Stopping the site so that it writes its CPU profile…');
      await ownSite.stopNow();
      summary.profile = topOfProfile(pid, startedAt);
      if (!summary.profile) log(`⚠ no CPU profile of pid ${pid} in ${PROFILES}`);
    }
    printReport(summary, log);
    log('');
    log(`Results: ${writeServerResults(summary)} (and e2e/bench/results/server-latest.json)`);
    const judged = summary.targets.map((t) => ({ label: `${t.label}: ${t.value} (target ${t.limit})`, met: t.met }));
    await ownSite.exit(checkExitCode('bench:server', judged, log));
  } catch (error) {
    console.error(`bench:server failed: ${error instanceof Error ? error.message : error}`);
    await ownSite.exit(1);
  }
}

run();
