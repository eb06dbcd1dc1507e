import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page, Route } from '@playwright/test';
import { expect } from '../support/test';
import { newMemberDetails, signIn, type TestMember } from '../support/members';
import { forgetEnvironment, forgetReleases, loseStoredFile } from '../support/controlPlane';
import { deployCli } from '../support/deployCli';
import { copyBuildAs } from '../support/buildCopy.mjs';
import { testWithShell } from '../support/specShell';
import { authEmulatorUrl, deployUrl, exactly } from '../support/site';
import site from '@netnet/site';

// A staged rollout of remote-search from release to rollback, with the real release and rollout
// CLIs, real production builds, the site's CDN for releases (:8090) and the shell as built. The
// releases carry this run's own versions and its rollout is its own environment, which only this
// spec's pages read: they come from a shell of the spec's own, served as `npm start` would serve
// it for that environment (support/specShell.ts); other specs, running alongside, keep seeing the
// usual site. Everything is removed afterwards.

const root = resolve(__dirname, '../..');
const REMOTE = 'remote-search';
const run = Date.now().toString(36);
// Not the remotes' own 1.0.0, so a page can only show these if it loaded the releases.
const STABLE = `2.0.0-e2e.${run}`;
const CANARY = `2.1.0-e2e.${run}`;
const ENVIRONMENT = `e2e-${run}`;
const deployDir = site.readSite().deployDir;

const test = testWithShell(ENVIRONMENT);
test.describe.configure({ mode: 'serial' });

let shellBefore: string;
let inCanary: TestMember;
let outOfCanary: TestMember;

const cli = deployCli(ENVIRONMENT);

/** One digest of every file under a folder. */
function digest(dir: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
  for (const path of files) hash.update(path).update(readFileSync(path));
  return hash.digest('hex');
}

/**
 * The rollout rule's bucket. The rollout package is ES modules: imported as one (as the control
 * plane's modules are, e2e/support/controlPlane.ts), never by a static import, which Playwright
 * compiles to CommonJS and caches so that every later ES import of the package finds no exports.
 */
const bucketOf = async (remote: string, id: string) =>
  ((await import(pathToFileURL(join(root, 'rollout/src/index.ts')).href)) as typeof import('@netnet/rollout')).bucketOf(remote, id);

/** A member account whose uid puts them inside (or outside) a 50% canary of remote-search. */
async function memberInBucket(canary: boolean): Promise<TestMember> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const details = newMemberDetails();
    const response = await fetch(`${authEmulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-netnet-key`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...details, returnSecureToken: true }),
    });
    const { localId } = (await response.json()) as { localId: string };
    if ((await bucketOf(REMOTE, localId)) < 50 === canary) return details;
  }
  throw new Error('no member landed in the wanted bucket');
}

/** The rollout events this page reports, kept for the test. */
async function watchRolloutEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = { fallbacks: [] as unknown[], outages: [] as unknown[] };
    Object.assign(window, { rolloutEvents: seen });
    window.addEventListener('netnet:canary-fallback', (event) => seen.fallbacks.push((event as CustomEvent).detail));
    window.addEventListener('netnet:remote-error', (event) => seen.outages.push((event as CustomEvent).detail));
  });
}

interface Loaded {
  version: string;
  channel: string;
  buildVersion?: string;
  state: string;
  fellBackFrom?: { version: string; channel: string };
}

/** What the shell says it loaded: its window['netnet:remotes'] debug object. */
const loadedSearch = (page: Page) =>
  page.evaluate(() => (window as unknown as { 'netnet:remotes'?: Record<string, Loaded> })['netnet:remotes']?.['remote-search']);

/** Opens /search with ?debug (plus any query) and returns the release of remote-search it loaded. */
async function openSearch(page: Page, query = ''): Promise<Loaded> {
  await page.goto(`/search?debug${query}`);
  await expect(page.getByRole('search').getByRole('searchbox', { name: 'Search titles' })).toBeVisible();
  await expect(page.getByText('This part of Netnet is unavailable right now')).toHaveCount(0);
  await expect.poll(async () => (await loadedSearch(page))?.state).toBe('loaded');
  return (await loadedSearch(page))!;
}

const footer = (page: Page) => page.getByRole('contentinfo', { name: 'Remote versions' });
const events = (page: Page) =>
  page.evaluate(() => (window as unknown as { rolloutEvents: { fallbacks: unknown[]; outages: unknown[] } }).rolloutEvents);

/** Opens /search and expects the canary to have fallen back to stable: shown, reported as a fallback, never as an outage. */
async function expectCanaryFellBack(page: Page, why: string): Promise<void> {
  expect(await openSearch(page), why).toMatchObject({
    version: STABLE,
    channel: 'stable',
    buildVersion: STABLE,
    fellBackFrom: { version: CANARY, channel: 'canary' },
  });
  await expect(footer(page)).toContainText(`remote-search: ${STABLE} (stable, canary ${CANARY} failed)`);
  const seen = await events(page);
  expect(seen.fallbacks).toEqual([expect.objectContaining({ remote: REMOTE, stable: STABLE, failed: { version: CANARY, channel: 'canary' } })]);
  expect(seen.outages).toEqual([]);
}

/** The same member signed in on another device: a new browser context, checked for page errors too. */
async function onAnotherDevice(context: BrowserContext, baseURL: string, member: TestMember, use: (page: Page) => Promise<void>) {
  const other = await context.browser()!.newContext({ baseURL });
  const page = await other.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await watchRolloutEvents(page);
  await signIn(page, member);
  await use(page);
  await other.close();
  expect(errors, 'uncaught errors on the other device').toEqual([]);
}

test.beforeAll(async () => {
  // A production build of remote-search (the release CLI's own): most of this hook's time.
  test.setTimeout(240_000);
  const cdn = await fetch(`${deployUrl}/`).catch(() => null);
  if (!cdn) throw new Error(`No release CDN at ${deployUrl}: the running site predates releases; restart npm start.`);
  shellBefore = digest(join(root, 'shell/dist'));

  await cli('release', REMOTE, '--version', STABLE);
  // The canary: the same code published as another version (a second build would prove nothing more).
  const canary = mkdtempSync(join(tmpdir(), `netnet-${REMOTE}-${CANARY}-`));
  copyBuildAs({ root, remote: REMOTE, version: CANARY, copy: canary });
  await cli('release', REMOTE, '--version', CANARY, '--from', canary);
  rmSync(canary, { recursive: true, force: true });
  await cli('rollout', 'stable', REMOTE, STABLE);
  await cli('rollout', 'canary', REMOTE, CANARY, '--percent', '50');
  [inCanary, outOfCanary] = await Promise.all([memberInBucket(true), memberInBucket(false)]);
});

test.afterAll(async () => {
  for (const version of [STABLE, CANARY]) rmSync(join(deployDir, REMOTE, version), { recursive: true, force: true });
  await forgetEnvironment(ENVIRONMENT);
  await forgetReleases(REMOTE, [STABLE, CANARY]);
  // Leave the deploy tree as found: no empty folder where nothing was ever released.
  const folder = join(deployDir, REMOTE);
  if (existsSync(folder) && readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
});

test('a 50% canary: a member in its half gets the canary on every load and every device', async ({ page, context, baseURL }) => {
  await watchRolloutEvents(page);
  await signIn(page, inCanary);
  for (let load = 0; load < 3; load += 1) {
    expect(await openSearch(page)).toMatchObject({ version: CANARY, channel: 'canary', buildVersion: CANARY });
  }
  await expect(footer(page)).toContainText(`remote-search: ${CANARY} (canary)`);

  await onAnotherDevice(context, baseURL!, inCanary, async (elsewhere) => {
    expect(await openSearch(elsewhere)).toMatchObject({ version: CANARY, channel: 'canary' });
  });
});

test('a 50% canary: a member in the other half keeps the stable release on every load', async ({ page }) => {
  await watchRolloutEvents(page);
  await signIn(page, outOfCanary);
  for (let load = 0; load < 3; load += 1) {
    expect(await openSearch(page)).toMatchObject({ version: STABLE, channel: 'stable', buildVersion: STABLE });
  }
  await expect(footer(page)).toContainText(`remote-search: ${STABLE} (stable)`);
  // The other remotes are untouched by this rollout: still their own builds.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(footer(page)).toContainText('remote-browse: 1.0.0 (stable)');
});

test('QA pins a version for this browser, sees a banner, and clears it', async ({ page }) => {
  await watchRolloutEvents(page);
  await signIn(page, outOfCanary);
  const banner = page.getByRole('status').filter({ hasText: 'QA overrides active' });

  expect(await openSearch(page, `&remote.${REMOTE}=${CANARY}`)).toMatchObject({ version: CANARY, channel: 'override' });
  await expect(banner).toContainText(`QA overrides active: remote-search ${CANARY}`);
  // Kept across loads until cleared.
  expect(await openSearch(page)).toMatchObject({ version: CANARY, channel: 'override' });

  expect(await openSearch(page, `&remote.${REMOTE}=clear`)).toMatchObject({ version: STABLE, channel: 'stable' });
  await expect(banner).toHaveCount(0);
});

/**
 * Serves a published file changed by one byte, as an attacker on the CDN might: a space after its
 * last statement, so the file still runs if nothing checks it. Changed on its way to this browser
 * (the instances serve releases from the store, and keep hot ones in memory: a file changed on a
 * disk would never be served). Returns the undo.
 */
async function tamper(context: BrowserContext, url: string): Promise<() => Promise<void>> {
  const serveChanged = async (route: Route) => {
    const response = await route.fetch();
    const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !['content-encoding', 'content-length', 'etag'].includes(name)));
    await route.fulfill({ status: response.status(), headers, body: Buffer.concat([await response.body(), Buffer.from(' ')]) });
  };
  await context.route(url, serveChanged);
  return () => context.unroute(url, serveChanged);
}

/** The addresses of a release's container and of the chunk of its Search page. */
function releaseFiles(version: string): { entry: string; chunk: string } {
  const release = join(deployDir, REMOTE, version);
  const chunk = readdirSync(release).find((name) => /^__federation_expose_Search\.[0-9a-f]+\.js$/.test(name));
  if (!chunk) throw new Error(`no Search chunk in ${release}`);
  const at = `${deployUrl}/${REMOTE}/${version}`;
  return { entry: `${at}/remoteEntry.js`, chunk: `${at}/${chunk}` };
}

test('a canary whose container or page chunk changed after publishing never runs: stable loads instead, reported', async ({ page, context, baseURL }) => {
  const failedScripts: string[] = [];
  page.on('console', (message) => /integrity/i.test(message.text()) && failedScripts.push(message.text()));
  await watchRolloutEvents(page);
  await signIn(page, inCanary);

  // The chunk first: its name is its hash, so a browser that once had the published file (a page
  // the server rendered preloads it) rightly keeps that copy; the entry is revalidated on every load.
  for (const which of ['chunk', 'entry'] as const) {
    const undo = await tamper(context, releaseFiles(CANARY)[which]);
    try {
      await expectCanaryFellBack(page, `canary with its ${which} changed`);
    } finally {
      await undo();
    }
  }
  // The browser refused the changed files for their digest, not for anything else.
  expect(failedScripts.some((text) => text.includes('remoteEntry.js'))).toBe(true);
  expect(failedScripts.some((text) => text.includes('__federation_expose_Search'))).toBe(true);

  // Untouched again, the canary loads as before, on a device that never saw the changed chunk
  // (a browser keeps a hashed file it once fetched, and this one rightly keeps refusing its copy).
  await onAnotherDevice(context, baseURL!, inCanary, async (elsewhere) => {
    expect(await openSearch(elsewhere)).toMatchObject({ version: CANARY, channel: 'canary' });
  });
});

test("a stable release whose page chunk changed shows the area's fallback with Retry, reported as an outage", async ({ page, context }) => {
  await watchRolloutEvents(page);
  await signIn(page, outOfCanary);
  const undo = await tamper(context, releaseFiles(STABLE).chunk);
  try {
    await page.goto('/search?debug');
    await expect(page.getByText('This part of Netnet is unavailable right now')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
    // The header and navigation still work.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' })).toBeVisible();
    await expect.poll(async () => (await events(page)).outages).toEqual([expect.objectContaining({ remote: 'remote_search' })]);
    expect((await events(page)).fallbacks).toEqual([]);
  } finally {
    await undo();
  }
});

test('a pin to a rolled-back release is refused, and pins never stay in the address bar or a shared link', async ({ page, context, baseURL }) => {
  await watchRolloutEvents(page);
  await signIn(page, outOfCanary);
  await cli('rollout', 'rollback', REMOTE); // the canary is rolled back: published, but not pinnable
  try {
    const banner = page.getByRole('status').filter({ hasText: 'pinnable' });
    expect(await openSearch(page, `&remote.${REMOTE}=${CANARY}`)).toMatchObject({ version: STABLE, channel: 'stable' });
    await expect(banner).toHaveText(`Not pinnable here: remote-search ${CANARY}. This page loads what members get.`);
    expect(page.url()).toBe(`${baseURL}/search?debug`);
    // Not kept either: the next load is a member's ordinary load.
    expect(await openSearch(page)).toMatchObject({ version: STABLE, channel: 'stable' });
    await expect(banner).toHaveCount(0);
  } finally {
    await cli('rollout', 'canary', REMOTE, CANARY, '--percent', '50');
  }

  // A pin that is allowed works, yet leaves the address bar at once: what is shared is the plain page.
  await context.route(/^https:\/\/(web|api)\.whatsapp\.com\//, (route) => route.fulfill({ body: 'shared' }));
  await page.goto(`/title/604?remote.${REMOTE}=${CANARY}&qa-token=1999999999.${'a'.repeat(43)}`);
  await expect(page.getByRole('status').filter({ hasText: 'QA overrides active' })).toContainText(`remote-search ${CANARY}`);
  expect(page.url()).toBe(`${baseURL}/title/604`);
  await page.getByRole('button', { name: 'Share' }).click();
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('dialog', { name: 'Share to ...' }).getByRole('button', { name: 'WhatsApp' }).click();
  const popup = await popupOpened;
  const text = new URL(popup.url()).searchParams.get('text') ?? '';
  expect(text).toMatch(new RegExp(` ${exactly(baseURL!)}/title/604$`));
  await popup.close();
  // Clear leaves nothing pinned.
  await page.getByRole('button', { name: 'Clear overrides' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'QA overrides active' })).toHaveCount(0);
});

test('a broken canary falls back to stable within the same load, with no error shown, and is reported', async ({ page }) => {
  const warnings: string[] = [];
  page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  await watchRolloutEvents(page);
  await signIn(page, inCanary);

  // First its entry script disappears from the instance's working copy (the manifest still
  // answers), then its manifest from the store itself: the copy, made again, lacks it.
  const release = join(deployDir, REMOTE, CANARY);
  for (const name of readdirSync(release).filter((file) => file.startsWith('remoteEntry.js'))) rmSync(join(release, name));
  for (const broken of ['entry', 'manifest']) {
    if (broken === 'manifest') {
      await loseStoredFile(REMOTE, CANARY, 'mf-manifest.json');
      rmSync(release, { recursive: true, force: true });
    }
    await expectCanaryFellBack(page, `canary without its ${broken}`);
  }
  expect(warnings.some((text) => text.includes(`remote-search ${CANARY} (canary) failed to load`))).toBe(true);
});

test('a rollback reaches members on their next load', async ({ page }) => {
  await watchRolloutEvents(page);
  await signIn(page, inCanary);
  const canaryRequests: string[] = [];
  page.on('request', (request) => request.url().includes(`/${REMOTE}/${CANARY}/`) && canaryRequests.push(request.url()));
  expect((await openSearch(page)).fellBackFrom).toBeDefined();

  expect(await cli('rollout', 'rollback', REMOTE)).toContain(`stable ${STABLE}`);
  canaryRequests.length = 0;
  const loaded = await openSearch(page);
  expect(loaded).toMatchObject({ version: STABLE, channel: 'stable' });
  expect(loaded.fellBackFrom).toBeUndefined();
  expect(canaryRequests).toEqual([]);
  expect((await events(page)).fallbacks).toEqual([]);
});

test("none of it built or changed the shell's files", () => {
  expect(digest(join(root, 'shell/dist'))).toBe(shellBefore);
});
