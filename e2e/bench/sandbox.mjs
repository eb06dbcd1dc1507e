// `npm run bench:sandbox`: what the render sandbox (docs/sandbox.md)
// costs and what it holds off, on the production site `npm start` runs (started here, for a rollout
// environment of this benchmark's own). From this process on loopback, autocannon, 20 connections:
//  1. before: /browse (a member) and / (a visitor), the other areas' renders/s and p99, while one
//     member opens /title/604 one page after another;
//  2. kill -9: every render process killed 3 s into 10 s of /title/604 as a member: failed requests
//     (the area falls back; there should be none);
//  3. stuck: remote-title's stable replaced by a copy whose every render (past its warm-up) loops
//     forever; /browse and / measured again while that member keeps asking for /title/604, whose
//     latency shows how long the stuck area takes to fall back.
// Prints the figures beside the targets and exits 1 with --check when one is missed.
//
//   npm run bench:sandbox -- [--duration 10] [--connections 20] [--check]
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { root } from '../../scripts/build.mjs';
import { copyBuildAs, rewriteServerPages } from '../support/buildCopy.mjs';
import { checkExitCode } from './check.mjs';
import { skipInterimResponses } from './interim.mjs';
import { keepSite, SITE, startSite } from './site.mjs';

const execute = promisify(execFile);
const ENVIRONMENT = `bench-sandbox-${Date.now().toString(36)}`;
const MEMBER = 'netnet-device=bench-sandbox-device; netnet-member=bench-sandbox-member';
const VISITOR = 'netnet-device=bench-sandbox-visitor';
const TARGETS = { keptShare: 0.95, p99Factor: 2, failedOnKill: 0, stuckFallbackMs: 1_500 };

const argv = process.argv.slice(2);
const number = (flag, fallback) => (argv.includes(flag) ? Number(argv[argv.indexOf(flag) + 1]) : fallback);
const duration = number('--duration', 10);
const connections = number('--connections', 20);

const cannon = async (path, cookie, seconds = duration) => {
  const result = await autocannon({ url: `${SITE}${path}`, setupClient: skipInterimResponses, connections, duration: seconds, headers: { cookie, 'accept-encoding': 'br, gzip' } });
  return { path, rps: result['2xx'] / result.duration, p99Ms: result.latency.p99, failed: result.non2xx + result.errors + result.timeouts };
};

/** The pids of every render process on this machine's site (their command line names the script). */
function renderProcesses() {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('renderWorker.js');
      } catch {
        return false;
      }
    })
    .map(Number);
}

const cli = (script, ...args) =>
  execute(process.execPath, [join(root, 'control-plane', 'bin', 'run.mjs'), script, ...args], { cwd: root, env: { ...process.env, NETNET_ENV: ENVIRONMENT } });

/** remote-title's build as `version`, its server build looping forever in every render past the fourth of a process. */
function loopingCopy(version, copy) {
  copyBuildAs({ root, remote: 'remote-title', version, copy });
  rewriteServerPages({ copy, onRender: 'for (;;) {}' });
}

/** A member opening /title/604 again and again until stopped; `stop()` gives each page's latency. */
function titleClient() {
  let running = true;
  const latencies = [];
  const done = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${SITE}/title/604`, { headers: { cookie: MEMBER } }).then((response) => response.text()).catch(() => {});
      latencies.push(performance.now() - started);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return latencies;
    },
  };
}

const site = keepSite('bench:sandbox');
site.hold(await startSite({ env: { NETNET_ENV: ENVIRONMENT, NETNET_GUARD: 'off' } }));
const staging = mkdtempSync(join(tmpdir(), 'netnet-bench-sandbox-'));
try {
  console.log(`render processes: ${renderProcesses().length}`);
  // The same traffic in both measurements: the other areas under load, and one member opening
  // title pages one after another (healthy now, stuck later), so the stuck release is the only change.
  const beforeTitles = titleClient();
  const before = [await cannon('/browse', MEMBER), await cannon('/', VISITOR)];
  await beforeTitles.stop();

  const killedAt = [];
  const killing = new Promise((resolve) =>
    setTimeout(() => {
      for (const pid of renderProcesses()) {
        try {
          process.kill(pid, 'SIGKILL');
          killedAt.push(pid);
        } catch {
          // gone already
        }
      }
      resolve();
    }, 3_000),
  );
  const killed = await cannon('/title/604', MEMBER);
  await killing;

  const version = `9.9.0-stuck.${Date.now().toString(36)}`;
  loopingCopy(version, join(staging, version));
  await cli('release', 'remote-title', '--version', version, '--from', join(staging, version));
  await cli('rollout', 'stable', 'remote-title', version);
  // The new stable's processes start and warm up; then every title render loops.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const stuckTitles = titleClient();
  const during = [await cannon('/browse', MEMBER), await cannon('/', VISITOR)];
  const titleLatencies = await stuckTitles.stop();
  titleLatencies.sort((a, b) => a - b);
  const stuckP99 = titleLatencies[Math.min(titleLatencies.length - 1, Math.floor(titleLatencies.length * 0.99))] ?? null;

  const rows = before.map((row, index) => ({ path: row.path, beforeRps: row.rps, duringRps: during[index].rps, beforeP99: row.p99Ms, duringP99: during[index].p99Ms }));
  const targets = [];
  console.log(`\nbench:sandbox (${connections} connections, ${duration} s each, on ${SITE}):`);
  for (const row of rows) {
    const share = row.duringRps / row.beforeRps;
    const factor = row.duringP99 / row.beforeP99;
    const ok = share >= TARGETS.keptShare && factor <= TARGETS.p99Factor;
    targets.push({ label: `${row.path} keeps its renders/s and p99 while remote-title is stuck`, met: ok });
    console.log(
      `${ok ? '✓' : '✗'} ${row.path} with remote-title stuck: ${row.duringRps.toFixed(0)} renders/s (${(share * 100).toFixed(0)} % of ${row.beforeRps.toFixed(0)}; target ≥ ${TARGETS.keptShare * 100} %), p99 ${row.duringP99} ms (${factor.toFixed(2)}× ${row.beforeP99} ms; target ≤ ${TARGETS.p99Factor}×)`,
    );
  }
  const killOk = killed.failed <= TARGETS.failedOnKill;
  targets.push({ label: 'no failed request when render processes are killed', met: killOk });
  console.log(`${killOk ? '✓' : '✗'} kill -9 of ${killedAt.length} render processes under load on /title/604: ${killed.failed} failed requests of ${Math.round(killed.rps * duration)} (target ${TARGETS.failedOnKill})`);
  const stuckOk = stuckP99 !== null && stuckP99 <= TARGETS.stuckFallbackMs;
  targets.push({ label: `a stuck area falls back within ${TARGETS.stuckFallbackMs} ms`, met: stuckOk });
  console.log(`${stuckOk ? '✓' : '✗'} /title/604 while its release loops: ${titleLatencies.length} pages, p99 ${stuckP99?.toFixed(0)} ms (target ≤ ${TARGETS.stuckFallbackMs} ms: the deadline, then stable or the browser)`);
  process.exitCode = checkExitCode('bench:sandbox', targets);
} finally {
  rmSync(staging, { recursive: true, force: true });
  await site.stopNow();
}
