import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Request } from '@playwright/test';
import { expect } from '../support/test';
import { forgetEnvironment, forgetReleases, readMap } from '../support/controlPlane';
import { copyBuildAs } from '../support/buildCopy.mjs';
import { deployCli } from '../support/deployCli';
import { testWithShell } from '../support/specShell';

// Guarded rollouts end to end: visitors' browsers report how remote-auth's releases do, the
// shell's server collects the reports, and its guard (as `npm start` runs it) rolls back a canary
// whose page chunk is missing, with no command, while a healthy canary is left alone
// (docs/architecture.md, "Release health"). The releases are copies of remote-auth's production
// build published under this run's versions (no build here); the rollout is an environment of the
// spec's own, served by a shell of its own.

const root = resolve(__dirname, '../..');
const site = require('../../scripts/site.cjs') as { deployDir(): string };
const REMOTE = 'remote-auth';
const run = Date.now().toString(36);
// A major of their own: the other specs publish remote-auth releases as 2.x and 3.x of their run.
const STABLE = `4.0.0-e2e.${run}`;
const BROKEN = `4.1.0-e2e.${run}`;
const HEALTHY = `4.2.0-e2e.${run}`;
const ENVIRONMENT = `e2e-health-${run}`;
const deployDir = site.deployDir();
const TAGLINE = 'Unlimited movies, TV shows, and more.';
const VISITORS_MEETING_THE_CANARY = 30;
// Visitors at once: each mostly waits for its page to send its reports, a few seconds after it
// loaded. More would load the machine enough to slow the server renders of the specs running beside.
const AT_ONCE = 4;

const test = testWithShell(ENVIRONMENT, { guard: { intervalMs: 2_000 } });
test.describe.configure({ mode: 'serial' });
const cli = deployCli(ENVIRONMENT);
let staging: string;

interface GuardEntry {
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
  fellBackFrom?: { version: string; channel: string };
  reports: unknown[];
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
    await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Get Started' }).first()).toBeEnabled();
    await expect(page.getByText('This part of Netnet is unavailable right now')).toHaveCount(0);
    const beacon = await sent;
    const status = await page.evaluate((remote) => (window as unknown as { 'netnet:remotes': Record<string, Omit<Visit, 'reports'>> })['netnet:remotes'][remote], REMOTE);
    expect(errors, 'uncaught errors').toEqual([]);
    if (!status) throw new Error(`the page says nothing of ${REMOTE}`);
    return { ...status, reports: (JSON.parse(beacon.postData() ?? '{}') as { reports: unknown[] }).reports };
  } finally {
    await context.close();
  }
}

/** Visitors, AT_ONCE at a time, until `wanted` of them met `version` as their canary, or it is no canary any more. */
async function visitUntil(browser: Browser, baseURL: string, version: string, wanted: number) {
  const visits: Visit[] = [];
  const met = () => visits.filter((one) => (one.fellBackFrom ?? one).version === version).length;
  while (met() < wanted && (await rollout()).remotes[REMOTE]!.canary?.version === version) {
    visits.push(...(await Promise.all(Array.from({ length: AT_ONCE }, () => visit(browser, baseURL)))));
    expect(visits.length, 'visitors sent so far').toBeLessThan(wanted * 4);
  }
  return { visits, metAt: Date.now() };
}

test.beforeAll(async () => {
  staging = mkdtempSync(join(tmpdir(), 'netnet-health-'));
  await publish(STABLE);
  await publish(BROKEN, { broken: true });
  await publish(HEALTHY);
  await cli('rollout', 'stable', REMOTE, STABLE);
});

test.afterAll(async () => {
  for (const version of [STABLE, BROKEN, HEALTHY]) rmSync(join(deployDir, REMOTE, version), { recursive: true, force: true });
  await forgetEnvironment(ENVIRONMENT);
  await forgetReleases(REMOTE, [STABLE, BROKEN, HEALTHY]);
  rmSync(staging, { recursive: true, force: true });
  const folder = join(deployDir, REMOTE);
  if (existsSync(folder) && readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
});

test('a 50% canary whose page chunk is missing is rolled back by the guard, with no command, within 60 s of 30 visitors meeting it', async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  await cli('rollout', 'canary', REMOTE, BROKEN, '--percent', '50');

  const { visits, metAt } = await visitUntil(browser, baseURL!, BROKEN, VISITORS_MEETING_THE_CANARY);
  // Every visitor saw a working page (checked in visit()); those in the canary got stable instead, and said so.
  const metCanary = visits.filter((one) => one.fellBackFrom?.version === BROKEN);
  // The guard needs some of them: a canary that fails every session is judged after 8 failures
  // (docs/architecture.md, "Release health"), and rolled back after no more than a few more.
  expect(metCanary.length).toBeGreaterThanOrEqual(8);
  for (const one of metCanary) {
    expect(one).toMatchObject({ version: STABLE, channel: 'stable' });
    expect(one.reports).toContainEqual({ remote: REMOTE, release: BROKEN, channel: 'canary', outcome: 'fell-back' });
  }
  // No report names the member, the page or anything but the schema's fields.
  for (const report of visits.flatMap((one) => one.reports)) {
    expect(Object.keys(report as object).every((key) => ['remote', 'release', 'channel', 'outcome', 'vitals'].includes(key))).toBe(true);
  }

  await expect.poll(async () => (await rollout()).remotes[REMOTE]!.canary, { timeout: 60_000 - (Date.now() - metAt), intervals: [500] }).toBeUndefined();
  console.log(`rolled back ${((Date.now() - metAt) / 1000).toFixed(1)} s after the last visits, ${metCanary.length} of ${visits.length} visitors having met the canary`);
  const rollback = (await rollout()).guardHistory?.find((entry) => entry.remote === REMOTE && entry.version === BROKEN);
  expect(rollback).toMatchObject({ action: 'rollback' });
  expect(rollback!.reason).toMatch(/^failure rate: canary .* failed \d+ of \d+ sessions/);

  // From now on every visitor gets stable, and a working page.
  for (const after of await Promise.all(Array.from({ length: 4 }, () => visit(browser, baseURL!)))) {
    expect(after).toMatchObject({ version: STABLE, channel: 'stable' });
    expect(after.fellBackFrom).toBeUndefined();
  }
});

test('a healthy canary at 50% is left alone', async ({ browser, baseURL }) => {
  test.setTimeout(300_000);
  await cli('rollout', 'canary', REMOTE, HEALTHY, '--percent', '50');
  const { visits } = await visitUntil(browser, baseURL!, HEALTHY, VISITORS_MEETING_THE_CANARY);
  expect(visits.filter((one) => one.version === HEALTHY).length).toBeGreaterThanOrEqual(VISITORS_MEETING_THE_CANARY);
  for (const one of visits.filter((visit) => visit.version === HEALTHY)) {
    expect(one.reports).toContainEqual({ remote: REMOTE, release: HEALTHY, channel: 'canary', outcome: 'loaded' });
  }
  // Several of the guard's passes over all of those reports.
  await new Promise((done) => setTimeout(done, 10_000));
  expect((await rollout()).remotes[REMOTE]!.canary).toEqual({ version: HEALTHY, percent: 50 });
  expect((await rollout()).guardHistory?.filter((entry) => entry.version === HEALTHY) ?? []).toEqual([]);
});
