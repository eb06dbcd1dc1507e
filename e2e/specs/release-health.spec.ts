import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page, Request } from '@playwright/test';
import { expect } from '../support/test';
import { forgetEnvironment, forgetReleases, guardPasses, readMap } from '../support/controlPlane';
import { copyBuildAs } from '../support/buildCopy.mjs';
import { deployCli } from '../support/deployCli';
import { forwardFromNetwork, type NetworkForwarder } from '../support/networks';
import { testWithShell } from '../support/specShell';
import { metricsOf, sumOf } from '../support/cluster';
import site from '@netnet/site';

// Guarded rollouts end to end: visitors' browsers report how remote-auth's releases do, the
// shell's server collects the reports, and its guard (as `npm start` runs it) rolls back a canary
// whose page chunk is missing, with no command, while a healthy canary is left alone
// (docs/release-health.md). The releases are copies of remote-auth's production
// build published under this run's versions (no build here); the rollout is an environment of the
// spec's own, served by a shell of its own.

const root = resolve(__dirname, '../..');
const REMOTE = 'remote-auth';
const run = Date.now().toString(36);
// A major of their own: the other specs publish remote-auth releases as 2.x and 3.x of their run.
const STABLE = `4.0.0-e2e.${run}`;
const BROKEN = `4.1.0-e2e.${run}`;
const HEALTHY = `4.2.0-e2e.${run}`;
const ENVIRONMENT = `e2e-health-${run}`;
const deployDir = site.readSite().deployDir;
const TAGLINE = 'Unlimited movies, TV shows, and more.';
const VISITORS_MEETING_THE_CANARY = 30;
/** Past the guard's floor of 20 canary sessions, under which it decides nothing (docs/release-health.md). */
const HEALTHY_SESSIONS = 22;
// Visitors at once: each mostly waits for its page to send its reports, a few seconds after it
// loaded. More would load the machine enough to slow the server renders of the specs running beside.
const AT_ONCE = 4;
/** The release console of the control-plane API `npm start` runs (it reads every environment's store). */
const CONSOLE = 'http://127.0.0.1:8070/console/';
const PERSON = `health-owner-${run}`;
const execute = promisify(execFile);
const tokens = async (...args: string[]) => (await execute('npm', ['run', '--silent', 'tokens', '--', ...args], { cwd: root })).stdout.trim();

// The guard as `npm start` runs it, but every second instead of every 5 s: it decides the same on
// the same reports, and the visitors stop sooner once it has (each one a page load on two cores).
const GUARD_INTERVAL_MS = 1_000;
const test = testWithShell(ENVIRONMENT, { guard: { intervalMs: GUARD_INTERVAL_MS } });
test.describe.configure({ mode: 'serial' });
const cli = deployCli(ENVIRONMENT);
let staging: string;
// Visitors come from three client networks, as members do: the guard rolls back only on failures
// from several networks (docs/release-health.md).
let networks: NetworkForwarder[] = [];
let visitors = 0;
const nextNetwork = () => networks[(visitors += 1) % networks.length]!.url;

interface GuardEntry {
  at: string;
  remote: string;
  action: string;
  version: string;
  reason: string;
}
interface Rollout {
  remotes: Record<string, { stable: string; canary?: { version: string; percent: number } }>;
  guardHistory?: GuardEntry[];
}
const rollout = async () => (await readMap<Rollout>(ENVIRONMENT))!;

/** Publishes remote-auth's production build as `version`; `broken` leaves its Landing page chunk out. */
async function publish(version: string, { broken = false } = {}): Promise<void> {
  const copy = join(staging, version);
  copyBuildAs({ root, remote: REMOTE, version, copy, without: broken ? 'Landing' : undefined });
  await cli('release', REMOTE, '--version', version, '--from', copy);
}

interface Visit {
  channel: string;
  version: string;
  /** counted: the server saw the canary fail and counted it itself. */
  fellBackFrom?: { version: string; channel: string; counted?: boolean };
  reports: unknown[];
  /** The page's ticket, as its beacon carried it. */
  ticket?: string;
  /** The beacon's address and body, as the page sent them. */
  beacon: { url: string; body: string };
  /** When the beacon went (ms). */
  sentAt: number;
  /** The origin the visitor came through: its client network. */
  origin: string;
}

/** One new visitor on `/`: the page works, and its browser sends its reports. */
async function visit(browser: Browser, baseURL: string): Promise<Visit> {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const sent = page.waitForRequest((request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === '/health/reports', { timeout: 30_000 });
    await page.goto('/');
    // Four visitors at once beside another worker's browser on two cores: a page that works may
    // take a while to be taken over (what it costs is the benchmarks' to say, not this spec's).
    await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('button', { name: 'Get Started' }).first()).toBeEnabled({ timeout: 30_000 });
    await expect(page.getByText('This part of Netnet is unavailable right now')).toHaveCount(0);
    const beacon = await sent;
    const sentAt = Date.now();
    const status = await page.evaluate((remote) => (window as unknown as { 'netnet:remotes': Record<string, Omit<Visit, 'reports'>> })['netnet:remotes'][remote], REMOTE);
    expect(errors, 'uncaught errors').toEqual([]);
    if (!status) throw new Error(`the page says nothing of ${REMOTE}`);
    const body = beacon.postData() ?? '{}';
    const { reports, ticket } = JSON.parse(body) as { reports: unknown[]; ticket?: string };
    return { ...status, reports, ticket, beacon: { url: beacon.url(), body }, sentAt, origin: baseURL };
  } finally {
    await context.close();
  }
}

/** Visitors, AT_ONCE at a time, until `wanted` of them met `version` as their canary, or it is no canary any more. */
async function visitUntil(browser: Browser, baseURL: string, version: string, wanted: number) {
  const visits: Visit[] = [];
  const met = () => visits.filter((one) => (one.fellBackFrom ?? one).version === version).length;
  while (met() < wanted && (await rollout()).remotes[REMOTE]!.canary?.version === version) {
    visits.push(...(await Promise.all(Array.from({ length: AT_ONCE }, () => visit(browser, networks.length ? nextNetwork() : baseURL)))));
    expect(visits.length, 'visitors sent so far').toBeLessThan(wanted * 4);
  }
  return { visits, metAt: Date.now() };
}

/** When the failed sessions first numbered 8 and came from every network (their beacons' times). */
function whenJudgeable(failed: readonly Visit[]): number {
  const inOrder = [...failed].sort((a, b) => a.sentAt - b.sentAt);
  const seen = new Set<string>();
  for (const [index, one] of inOrder.entries()) {
    seen.add(one.origin);
    if (index + 1 >= 8 && seen.size >= networks.length) return one.sentAt;
  }
  throw new Error(`the failed sessions never came from all ${networks.length} networks: ${inOrder.map((one) => one.origin).join(', ')}`);
}

test.beforeAll(async ({ specShell }) => {
  networks = await Promise.all([21, 22, 23].map((network) => forwardFromNetwork(Number(new URL(specShell.url).port), network)));
  staging = mkdtempSync(join(tmpdir(), 'netnet-health-'));
  await publish(STABLE);
  await publish(BROKEN, { broken: true });
  await publish(HEALTHY);
  await cli('rollout', 'stable', REMOTE, STABLE);
});

/**
 * A release owner watching remote-auth in the console, signed in with a person's link: the
 * environment's overview and the remote's own page, open side by side and never reloaded.
 */
async function watchInConsole(browser: Browser): Promise<{ context: BrowserContext; overview: Page; remote: Page; reloaded(): Promise<boolean> }> {
  const link = await tokens('create', PERSON, '--remotes', REMOTE, '--environments', ENVIRONMENT, '--actions', 'status', '--person');
  const context = await browser.newContext();
  const overview = await context.newPage();
  await overview.goto(link);
  await expect(overview.getByRole('heading', { name: `Every remote in ${ENVIRONMENT}` })).toBeVisible();
  const remote = await context.newPage();
  await remote.goto(`${CONSOLE}#/${ENVIRONMENT}/remote/${REMOTE}`);
  await expect(remote.getByRole('heading', { name: `${REMOTE} in ${ENVIRONMENT}` })).toBeVisible();
  // A reload would drop this mark: what the pages show at the end came to them live.
  for (const page of [overview, remote]) await page.evaluate(() => ((window as unknown as { keptSinceOpened: boolean }).keptSinceOpened = true));
  const reloaded = async () => (await Promise.all([overview, remote].map((page) => page.evaluate(() => (window as unknown as { keptSinceOpened?: boolean }).keptSinceOpened !== true)))).some(Boolean);
  return { context, overview, remote, reloaded };
}

test.afterAll(async () => {
  await Promise.all(networks.map((network) => network.close()));
  for (const version of [STABLE, BROKEN, HEALTHY]) rmSync(join(deployDir, REMOTE, version), { recursive: true, force: true });
  await forgetEnvironment(ENVIRONMENT);
  await forgetReleases(REMOTE, [STABLE, BROKEN, HEALTHY]);
  rmSync(staging, { recursive: true, force: true });
  const folder = join(deployDir, REMOTE);
  if (existsSync(folder) && readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
});

test('a 50% canary whose page chunk is missing is rolled back by the guard, with no command, once its first 8 or so sessions failed; an open console shows it live', async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  const watching = await watchInConsole(browser);
  try {
    await cli('rollout', 'canary', REMOTE, BROKEN, '--percent', '50');
    const set = Date.now();
    await expect(watching.remote.getByText(`Serves: stable ${STABLE}, canary ${BROKEN} at 50 %.`)).toBeVisible({ timeout: 5_000 });
    console.log(`the open console showed the canary ${Date.now() - set} ms after the command returned`);
    // Meanwhile the overview (its charts read again every 5 s) shows the canary's failure rate rise
    // above 0 over its sessions, before the guard takes it away.
    const card = watching.overview.getByRole('listitem').filter({ has: watching.overview.getByRole('heading', { name: REMOTE, exact: true }) });
    const failing = new RegExp(`^${BROKEN.replace(/\./g, '\\.')} \\(canary\\): (?!0\\.0 %)[\\d.]+ % of [1-9]\\d*$`);
    const failureShown = expect(card.getByText(failing)).toBeVisible({ timeout: 240_000 }).then(
      () => true,
      () => false,
    );

    const { visits, metAt } = await visitUntil(browser, baseURL!, BROKEN, VISITORS_MEETING_THE_CANARY);
    // Every visitor saw a working page (checked in visit()); those in the canary got stable instead, and said so.
    const metCanary = visits.filter((one) => one.fellBackFrom?.version === BROKEN);
    // The guard needs some of them: a canary that fails every session is judged after 8 failures
    // (docs/release-health.md), and rolled back after no more than a few more.
    expect(metCanary.length).toBeGreaterThanOrEqual(8);
    for (const one of metCanary) {
      expect(one).toMatchObject({ version: STABLE, channel: 'stable' });
      // Counted once: by the page's report, or by the server that saw the canary fail (then the page says nothing of it).
      if (one.fellBackFrom?.counted) expect(one.reports).not.toContainEqual(expect.objectContaining({ release: BROKEN }));
      else expect(one.reports).toContainEqual({ remote: REMOTE, release: BROKEN, channel: 'canary', outcome: 'fell-back' });
    }
    // No report names the member, the page or anything but the schema's fields.
    for (const report of visits.flatMap((one) => one.reports)) {
      expect(Object.keys(report as object).every((key) => ['remote', 'release', 'channel', 'outcome', 'vitals'].includes(key))).toBe(true);
    }

    await expect.poll(async () => (await rollout()).remotes[REMOTE]!.canary, { timeout: 60_000 - (Date.now() - metAt), intervals: [500] }).toBeUndefined();
    console.log(`rolled back ${((Date.now() - metAt) / 1000).toFixed(1)} s after the last visits, ${metCanary.length} of ${visits.length} visitors having met the canary`);
    const rollback = (await rollout()).guardHistory?.find((entry) => entry.remote === REMOTE && entry.version === BROKEN);
    expect(rollback).toMatchObject({ action: 'rollback' });
    // Within 15 s of the moment the guard's rules were met (npm start's guard, every 5 s, is held to
    // the same): 8 failed sessions, from 3 networks (which network a visitor meets the canary from is chance).
    const judgeable = whenJudgeable(metCanary);
    const after = Date.parse(rollback!.at) - judgeable;
    const perNetwork = networks.map((network) => metCanary.filter((one) => one.origin === network.url && one.sentAt <= judgeable).length);
    console.log(`rolled back ${(after / 1000).toFixed(1)} s after the guard's rules were met (failed sessions by network then: ${perNetwork.join(', ')})`);
    expect(after).toBeLessThanOrEqual(15_000);
    const [, failed, sessions] = /^failure rate: canary .* failed (\d+) of (\d+) sessions/.exec(rollback!.reason) ?? [];
    // Judged once 8 sessions had all failed; the beacons of the visitors already on their way may add a few.
    expect(Number(failed)).toBeGreaterThanOrEqual(8);
    expect(Number(failed)).toBe(Number(sessions));
    expect(Number(failed)).toBeLessThanOrEqual(8 + 2 * AT_ONCE);

    // From now on every visitor gets stable, and a working page.
    for (const after of await Promise.all(Array.from({ length: 4 }, () => visit(browser, baseURL!)))) {
      expect(after).toMatchObject({ version: STABLE, channel: 'stable' });
      expect(after.fellBackFrom).toBeUndefined();
    }

    // The console, never reloaded, has followed: the canary's failure rate in the overview, then the
    // guard's rollback on the remote's page.
    expect(await failureShown, `the overview showed ${BROKEN}'s failure rate above 0 while it was the canary`).toBe(true);
    await expect(watching.remote.getByText(`Serves: stable ${STABLE}, no canary.`)).toBeVisible({ timeout: 5_000 });
    const trail = watching.remote.getByRole('table', { name: `Changes to ${REMOTE} in ${ENVIRONMENT}, newest first` });
    await expect(trail.getByRole('row').filter({ hasText: /guard@/ }).filter({ hasText: 'rollback' }).first()).toBeVisible({ timeout: 5_000 });
    expect(await watching.reloaded(), 'the console pages were never reloaded').toBe(false);
  } finally {
    await watching.context.close();
    await tokens('revoke', PERSON).catch(() => {});
  }
});

test('a healthy canary at 50% is left alone', async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  await cli('rollout', 'canary', REMOTE, HEALTHY, '--percent', '50');
  const { visits } = await visitUntil(browser, baseURL!, HEALTHY, HEALTHY_SESSIONS);
  expect(visits.filter((one) => one.version === HEALTHY).length).toBeGreaterThanOrEqual(HEALTHY_SESSIONS);
  for (const one of visits.filter((visit) => visit.version === HEALTHY)) {
    expect(one.reports).toContainEqual({ remote: REMOTE, release: HEALTHY, channel: 'canary', outcome: 'loaded' });
  }
  // Several of the guard's passes over all of those reports.
  await guardPasses(ENVIRONMENT, 3);
  expect((await rollout()).remotes[REMOTE]!.canary).toEqual({ version: HEALTHY, percent: 50 });
  expect((await rollout()).guardHistory?.filter((entry) => entry.version === HEALTHY) ?? []).toEqual([]);
});

test('a page’s reports count; a batch forged from the same page, without its ticket or beyond it, does not', async ({ browser, baseURL }) => {
  const sessions = async (release: string, outcome: string) =>
    sumOf(await metricsOf(baseURL!), 'netnet_health_reports_total', { remote: REMOTE, release, outcome });
  const before = { loaded: await sessions(STABLE, 'loaded'), forged: await sessions(HEALTHY, 'fell-back') };
  // Every visitor on stable: the page is given no canary at all.
  if ((await rollout()).remotes[REMOTE]?.canary) await cli('rollout', 'rollback', REMOTE);
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    const sent = page.waitForRequest((request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === '/health/reports', { timeout: 30_000 });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
    const beacon = await sent;
    const { ticket } = JSON.parse(beacon.postData() ?? '{}') as { ticket?: string };
    expect(ticket).toEqual(expect.any(String));
    await expect.poll(() => sessions(STABLE, 'loaded')).toBe(before.loaded + 1);

    // The same page, as a script on it could: 50 invented failures of a canary it was never given.
    const forged = Array.from({ length: 50 }, () => ({ remote: REMOTE, release: HEALTHY, channel: 'canary', outcome: 'fell-back' }));
    const statuses = await page.evaluate(
      async ({ forged, ticket, replay }) => {
        const post = async (url: string, body: string) => (await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'text/plain' } })).status;
        const answers = [await post('/health/reports', JSON.stringify({ reports: forged })), await post('/health/reports', JSON.stringify({ ticket, reports: forged }))];
        for (let i = 0; i < 20; i += 1) answers.push(await post(replay.url, replay.body));
        return answers;
      },
      { forged, ticket, replay: { url: new URL(beacon.url()).pathname + new URL(beacon.url()).search, body: beacon.postData() ?? '' } },
    );
    // No ticket, then a ticket that does not name the release: refused. The page's own batch again: taken, not counted again.
    expect(statuses.slice(0, 2)).toEqual([403, 403]);
    expect(new Set(statuses.slice(2))).toEqual(new Set([204]));
    expect(await sessions(HEALTHY, 'fell-back')).toBe(before.forged);
    expect(await sessions(STABLE, 'loaded')).toBe(before.loaded + 1);
  } finally {
    await context.close();
  }
});
