// `npm run bench:console`: the release console's figures (docs/releases.md, "A release owner's day
// in the console"; targets in docs/performance.md). Starts the site as `npm start` does (or reuses
// one with --reuse), makes a person's token and an environment of its own, fills its last hour with
// reports as they come at 5,000 a second (through the store's own writer; the canary fails more
// after its widening), and prints beside each target (✓ met, ✗ missed, ? not measured):
//   - the console's first-load JavaScript, brotli bytes as sent, and its LCP, on a cold cache
//     throttled as bench:web throttles (CPU ×4, 150 ms round trip, 1.6 Mbit/s; e2e/bench/measure.mjs);
//   - how long a rollout change made with the CLI takes to show in an open console: from the
//     change's commit in the store (its audit entry's time) to the frame that shows it, p50/p99 of 20;
//   - how long one remote's hour chart takes to draw with the CPU ×4 slower: from its figures'
//     arrival to the frame painted with it (the console's own User Timing, console/src/timing.ts),
//     p50/max over --draws opened views and the refreshes in between.
// Options: --loads=3, --draws=8, --reuse, --check (exit 1 when a target is missed; check.mjs),
// --screenshots (also writes docs/screenshots/console-*.png).
// Everything it made is removed afterwards. Run inside a network namespace of your own when the
// machine is shared: unshare -n sh -c 'ip link set lo up; npm run bench:console'
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from '@playwright/test';
import chromiumLaunch from '../chromium.json' with { type: 'json' };
import { copyBuildAs } from '../support/buildCopy.mjs';
import { checkExitCode, mark } from './check.mjs';
import { DEVICE, THROTTLING } from './measure.mjs';
import { root } from '../../scripts/build.mjs';
import { startSite } from './site.mjs';
import { openDatabase, readStoreSettings } from '@netnet/control-plane/store';
import { controlPort } from '@netnet/control-plane/api-port';
import { createHealthStore } from '@netnet/control-plane/health';

const execute = promisify(execFile);
const run = Date.now().toString(36);
const ENVIRONMENT = `bench-console-${run}`;
const PERSON = `bench-console-${run}`;
const REMOTE = 'remote-title';
const VERSIONS = [`4.0.0-bench.${run}`, `4.1.0-bench.${run}`];
const CHANGES = 20;
const option = (name, fallback) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const LOADS = option('loads', 3);
const DRAWS = option('draws', 8);
const REPORTS_PER_SECOND = 5_000;
const TARGETS = { jsKB: 120, lcpMs: 1_200, liveMs: 1_000, drawMs: 100 };
const CONSOLE = `http://127.0.0.1:${controlPort(process.env)}/console/`;

const cli = async (script, ...args) =>
  (await execute(process.execPath, [join(root, 'control-plane/bin/run.mjs'), script, ...args], { cwd: root, env: { ...process.env, NETNET_ENV: ENVIRONMENT } })).stdout.trim();

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};

/** A signed-in browser state (the session cookie), made with a fresh one-time link. */
async function signedIn(browser) {
  const link = await cli('tokens', 'link', PERSON);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole('heading', { name: `Every remote in ${ENVIRONMENT}` }).waitFor();
  const state = await context.storageState();
  await context.close();
  return state;
}

/** One cold, throttled load of the console: its JS as sent (brotli), its LCP, console problems. */
async function coldLoad(browser, storageState) {
  const context = await browser.newContext({ ...DEVICE, storageState });
  await context.addInitScript(() => {
    window.__lcp = [];
    new PerformanceObserver((list) => window.__lcp.push(...list.getEntries().map((entry) => ({ time: entry.startTime, element: entry.element?.tagName ?? null })))).observe({
      type: 'largest-contentful-paint',
      buffered: true,
    });
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map();
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => type === 'Script' && scripts.set(requestId, { url: response.url, encoding: response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? 'none', bytes: 0 }));
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const script = scripts.get(requestId);
    if (script) script.bytes = encodedDataLength;
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLING.latencyMs,
    downloadThroughput: (THROTTLING.downloadKbps * 1024) / 8,
    uploadThroughput: (THROTTLING.uploadKbps * 1024) / 8,
  });
  await page.goto(`${CONSOLE}#/${ENVIRONMENT}`);
  await page.getByRole('link', { name: REMOTE, exact: true }).waitFor({ timeout: 60_000 });
  // LCP is final at the first input; until then, give late candidates a moment.
  await page.waitForTimeout(1_500);
  const lcp = await page.evaluate(() => window.__lcp.at(-1) ?? null);
  await context.close();
  const list = [...scripts.values()];
  const bytes = (some) => some.reduce((sum, script) => sum + script.bytes, 0);
  return {
    jsBytes: bytes(list),
    // The page's own script (its name is the entry's, console.<hash>.js); the rest are chunks loaded once idle.
    entryBytes: bytes(list.filter((script) => /\/console\.[0-9a-f]+\.js$/.test(script.url))),
    scripts: list.length,
    encodings: [...new Set(list.map((script) => script.encoding))],
    lcpMs: lcp?.time ?? null,
    lcpElement: lcp?.element ?? null,
    problems,
  };
}

/** CLI changes while a console is open: ms from each change's commit to the frame showing it. */
async function liveLatencies(browser, storageState, db) {
  const context = await browser.newContext({ storageState });
  const page = await context.newPage();
  await page.goto(`${CONSOLE}#/${ENVIRONMENT}`);
  await page.getByText('Live', { exact: true }).waitFor();
  const latencies = [];
  for (let change = 0; change < CHANGES; change += 1) {
    const percent = 11 + change;
    const text = `${VERSIONS[1]} at ${percent} %`;
    // Watches every frame from now on; resolves with the wall-clock time it first shows.
    const shown = page.evaluate(
      (wanted) =>
        new Promise((resolve) => {
          const look = () => (document.body.innerText.includes(wanted) ? resolve(performance.timeOrigin + performance.now()) : requestAnimationFrame(look));
          look();
        }),
      text,
    );
    await cli('rollout', 'canary', REMOTE, VERSIONS[1], '--percent', String(percent));
    const shownAt = await shown;
    const { rows } = await db.pool.query('SELECT at FROM audit WHERE environment = $1 ORDER BY id DESC LIMIT 1', [ENVIRONMENT]);
    latencies.push(shownAt - rows[0].at.getTime());
  }
  await context.close();
  return latencies;
}

/**
 * The last hour of the bench's remote as it comes at `perSecond` reports a second, each minute one
 * batch through the store's own writer (the collector's): a tenth of the sessions are the canary's
 * until its widening 20 minutes ago, a fifth after, and it fails more after. Reports are drawn from
 * a pool of distinct ones (the writer counts them, it does not keep them).
 */
async function simulateHour(db, perSecond) {
  const store = createHealthStore({ db: db.pool, environment: ENVIRONMENT });
  const now = Date.now();
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const pool = (widened) =>
    Array.from({ length: 4096 }, () => {
      const canary = random() < (widened ? 0.2 : 0.1);
      const failRate = canary && widened ? 0.06 : 0.01;
      return {
        remote: REMOTE,
        release: canary ? VERSIONS[1] : VERSIONS[0],
        channel: canary ? 'canary' : 'stable',
        outcome: random() < failRate ? 'failed' : 'loaded',
        vitals: { lcp: Math.round((canary ? 1900 : 1700) * (0.7 + random() * 0.8)) },
      };
    });
  const pools = { before: pool(false), after: pool(true) };
  const reports = new Array(perSecond * 60);
  for (let ago = 59; ago >= 1; ago -= 1) {
    const from = ago > 20 ? pools.before : pools.after;
    for (let index = 0; index < reports.length; index += 1) reports[index] = from[Math.floor(random() * from.length)];
    await store.append(reports, now - ago * 60_000);
  }
  await store.close();
}

/**
 * One remote's hour chart drawn with the CPU ×4 slower (network as it is): the remote's view opened
 * `DRAWS` times from the overview, a refresh or two of its figures in between; each draw measured
 * by the console itself, from the figures' arrival to the frame painted with the chart.
 */
async function chartDraws(browser, storageState) {
  const context = await browser.newContext({ ...DEVICE, storageState });
  await context.addInitScript(() => {
    window.__draws = [];
    new PerformanceObserver((list) => window.__draws.push(...list.getEntries().filter((entry) => entry.name === 'console:hour-chart').map((entry) => entry.duration))).observe({ type: 'measure' });
  });
  const page = await context.newPage();
  await page.goto(`${CONSOLE}#/${ENVIRONMENT}`);
  await page.getByRole('link', { name: REMOTE, exact: true }).waitFor();
  // The later views' chunks come once the page is idle: let them (a console that has none goes on after 10 s).
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => /\/remote-page\.[0-9a-f]+\.js$/.test(entry.name)), null, { timeout: 10_000 }).catch(() => {});
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLING.cpuSlowdown });
  const drawn = () => page.evaluate(() => window.__draws.length);
  const waitForDraw = async (count, timeout) => {
    try {
      await page.waitForFunction((wanted) => window.__draws.length >= wanted, count, { timeout });
    } catch {
      // not drawn (or not measured: a console without its timing): counted as missing
    }
  };
  let missing = 0;
  for (let draw = 0; draw < DRAWS; draw += 1) {
    const before = await drawn();
    await page.evaluate((hash) => (window.location.hash = hash), `#/${ENVIRONMENT}/remote/${REMOTE}`);
    await waitForDraw(before + 1, 15_000);
    if ((await drawn()) === before) missing += 1;
    // Twice on the way: stay for one refresh of the figures (read every 5 s).
    if (draw === 2 || draw === 5) await waitForDraw(before + 2, 8_000);
    await page.evaluate((hash) => (window.location.hash = hash), `#/${ENVIRONMENT}`);
    await page.getByRole('link', { name: REMOTE, exact: true }).waitFor();
  }
  const draws = await page.evaluate(() => window.__draws);
  await context.close();
  return { draws, missing };
}

/** The docs' screenshots at a laptop's width: every remote, a confirmation, one remote. */
async function screenshots(browser, storageState) {
  const context = await browser.newContext({ storageState, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const dir = join(root, 'docs/screenshots');
  await page.goto(`${CONSOLE}#/${ENVIRONMENT}`);
  await page.getByRole('heading', { name: `Every remote in ${ENVIRONMENT}` }).waitFor();
  await page.getByText('Live', { exact: true }).waitFor();
  // The heading shows before the figures: wait for a remote's card.
  await page.getByRole('link', { name: REMOTE, exact: true }).waitFor();
  await page.screenshot({ path: join(dir, 'console-overview.png') });
  await page.getByRole('button', { name: `Set canary share ${REMOTE}` }).click();
  await page.getByLabel('Share of members (%)').fill('20');
  await page.getByText(/^Passes:/).waitFor();
  await page.getByRole('textbox', { name: 'Reason' }).fill('a clean hour at 15 %');
  await page.screenshot({ path: join(dir, 'console-confirm.png') });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('link', { name: REMOTE, exact: true }).click();
  await page.getByRole('table', { name: /Releases of/ }).waitFor();
  await page.screenshot({ path: join(dir, 'console-remote.png'), fullPage: true });
  await context.close();
}

async function main() {
  const site = await startSite({ reuse: process.argv.includes('--reuse') });
  const staging = mkdtempSync(join(tmpdir(), 'netnet-bench-console-'));
  const db = await openDatabase({ store: readStoreSettings(process.env), max: 2 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? chromiumLaunch.executablePath, args: chromiumLaunch.args });
  try {
    for (const version of VERSIONS) {
      const copy = join(staging, version);
      copyBuildAs({ root, remote: REMOTE, version, copy });
      await cli('release', REMOTE, '--version', version, '--from', copy);
    }
    await cli('rollout', 'stable', REMOTE, VERSIONS[0]);
    await cli('rollout', 'canary', REMOTE, VERSIONS[1], '--percent', '10');
    await execute(process.execPath, [join(root, 'control-plane/bin/run.mjs'), 'tokens', 'create', PERSON, '--remotes', '*', '--environments', ENVIRONMENT, '--actions', '*', '--person'], { cwd: root });
    const simulating = Date.now();
    await simulateHour(db, REPORTS_PER_SECOND);
    const simulatedS = (Date.now() - simulating) / 1000;
    // A change marked on the hour's chart.
    await cli('rollout', 'canary', REMOTE, VERSIONS[1], '--percent', '15');
    const state = await signedIn(browser);
    if (process.argv.includes('--screenshots')) await screenshots(browser, state);

    const loads = [];
    for (let load = 0; load < LOADS; load += 1) loads.push(await coldLoad(browser, state));
    const latencies = await liveLatencies(browser, state, db);
    // After the live changes: 20 more marked on the chart.
    const { draws, missing } = await chartDraws(browser, state);

    const lcps = loads.map((load) => load.lcpMs).filter((value) => value !== null);
    const lcp = lcps.length ? quantile(lcps, 0.5) : null;
    const jsKB = loads[0].jsBytes / 1024;
    const live = quantile(latencies, 0.99);
    const draw = draws.length ? quantile(draws, 0.5) : null;
    const targets = [
      { label: `first-load JS ≤ ${TARGETS.jsKB} KB brotli`, met: jsKB <= TARGETS.jsKB },
      { label: `LCP ≤ ${TARGETS.lcpMs} ms (median of ${loads.length} cold loads)`, met: lcp === null ? null : lcp <= TARGETS.lcpMs },
      { label: `CLI change → open console ≤ ${TARGETS.liveMs} ms (p99 of ${latencies.length})`, met: live <= TARGETS.liveMs },
      { label: `hour chart drawn ≤ ${TARGETS.drawMs} ms at CPU ×${THROTTLING.cpuSlowdown} (median of ${DRAWS} or more draws)`, met: draw === null || missing > 0 ? null : draw <= TARGETS.drawMs },
    ];
    console.log(`an hour of ${REMOTE} at ${REPORTS_PER_SECOND.toLocaleString('en')} reports/s (${(REPORTS_PER_SECOND * 3540).toLocaleString('en')} reports through the store's writer in ${simulatedS.toFixed(1)} s)`);
    console.log(`release console, ${loads.length} cold loads throttled as bench:web (CPU ×${THROTTLING.cpuSlowdown}, ${THROTTLING.latencyMs} ms RTT, ${(THROTTLING.downloadKbps / 1024).toFixed(2)} Mbit/s):`);
    console.log(
      `  ${mark(targets[0].met)} first-load JS: ${loads[0].jsBytes} bytes as sent (${loads[0].encodings.join(', ')}; ${jsKB.toFixed(1)} KB in ${loads[0].scripts} files, ` +
        `the page's own ${(loads[0].entryBytes / 1024).toFixed(1)} KB, the rest loaded once idle; target ≤ ${TARGETS.jsKB} KB brotli)`,
    );
    console.log(`  ${mark(targets[1].met)} LCP: median ${lcp === null ? '?' : Math.round(lcp)} ms, worst ${lcps.length ? Math.round(Math.max(...lcps)) : '?'} ms (element ${loads[0].lcpElement}; target ≤ ${TARGETS.lcpMs} ms)`);
    const problems = loads.flatMap((load) => load.problems);
    console.log(`  console errors: ${problems.length ? problems.join(' | ') : 'none'}`);
    console.log(`${mark(targets[2].met)} CLI change → open console, ${latencies.length} changes: p50 ${Math.round(quantile(latencies, 0.5))} ms, p99 ${Math.round(live)} ms, max ${Math.round(Math.max(...latencies))} ms (target ≤ ${TARGETS.liveMs} ms)`);
    console.log(
      `${mark(targets[3].met)} hour chart of ${REMOTE}, figures arrived → chart painted at CPU ×${THROTTLING.cpuSlowdown}, ${draws.length} draws` +
        `${missing ? ` (${missing} opened views measured nothing)` : ''}: ` +
        (draws.length ? `p50 ${Math.round(draw)} ms, max ${Math.round(Math.max(...draws))} ms` : 'not measured') +
        ` (target ≤ ${TARGETS.drawMs} ms)`,
    );
    process.exitCode = checkExitCode('bench:console', targets);
  } finally {
    await browser.close();
    await execute(process.execPath, [join(root, 'control-plane/bin/run.mjs'), 'tokens', 'revoke', PERSON], { cwd: root }).catch(() => {});
    for (const table of ['rollouts', 'audit', 'health_counts', 'guard_leases']) await db.pool.query(`DELETE FROM ${table} WHERE environment = $1`, [ENVIRONMENT]);
    await db.pool.query('DELETE FROM releases WHERE remote = $1 AND version = ANY($2)', [REMOTE, VERSIONS]);
    for (const version of VERSIONS) rmSync(join(root, 'deploy', REMOTE, version), { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
    await db.close();
    await site.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
