import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { test, expect, asVisitor } from '../support/memberSession';
import { forgetEnvironment, forgetReleases } from '../support/controlPlane';
import { deployCli } from '../support/deployCli';
import { testWithShell } from '../support/specShell';
import { catalogueJson } from '../support/catalogue';
import { collectCspViolations } from '../support/cspViolations';
import { whenAppRuns } from '../support/navigate';
import { pageSettled } from '../support/tabVisibility';
import { catalogueApi, siteUrl } from '../support/site';
import { metricsOf, sumOf, untilRenderProcessesReady } from '../support/cluster';
import { copyBuildAs } from '../support/buildCopy.mjs';
import site from '@netnet/site';

// First paint from the server (docs/architecture.md#server-rendering): every page comes as HTML
// that reads without JavaScript, the browser takes that very HTML over without a mismatch, the
// data it was rendered with is not asked for again, members' deep links land where they point,
// and a release whose server build throws, hangs or is missing costs the server's part only.

interface Details {
  title: string;
  overview: string;
  vote_average: number;
  release_date: string;
  runtime: number;
}

const TAGLINE = 'Unlimited movies, TV shows, and more.';
const SIGN_UP = 'Ready to watch? Enter your email to create or restart your membership.';
/** Every page address, as the issue lists them. */
const PAGES = ['/', '/login', '/browse', '/movies', '/series', '/title/604', '/search?q=comedy', '/my-list', '/coming-soon', '/downloads'];
const VISITOR_PAGES = ['/', '/login'];

const featured = () => catalogueJson<Details>('movie/604?language=en-US');

/** What a title's facts line shows: match, year, running time. */
const factsOf = (movie: Details) => [
  `${Math.round(movie.vote_average * 10)}% match`,
  movie.release_date.slice(0, 4),
  `${Math.floor(movie.runtime / 60)}h ${movie.runtime % 60}m`,
];

test.describe.configure({ mode: 'parallel' });

test.describe('without JavaScript', () => {
  test.use({ ...asVisitor, javaScriptEnabled: false });

  test('the landing page shows the tagline, the sign-up form and the featured title; the sign-in page its form', async ({ page }) => {
    const movie = await featured();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: SIGN_UP })).toBeVisible();
    const signUp = page.getByRole('form', { name: SIGN_UP });
    await expect(signUp.getByRole('textbox', { name: 'Email address' })).toHaveAttribute('type', 'email');
    await expect(signUp.getByLabel('Password', { exact: true })).toBeVisible();
    // Without scripts nobody can be signed up: the button is there, disabled rather than sending
    // the password in the address (docs/architecture.md#server-rendering).
    await expect(signUp.getByRole('button', { name: 'Get Started' })).toBeDisabled();
    await expect(page.getByRole('figure')).toHaveText(`Featured: ${movie.title}`);
    await expect.poll(() => page.getByRole('figure').locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

    await page.goto('/login');
    const signIn = page.getByRole('form', { name: 'Sign In' });
    await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
    await expect(signIn.getByRole('textbox', { name: 'Email address' })).toBeVisible();
    await expect(signIn.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(signIn.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  });

  test("a member's title page shows the title, its facts and its overview", async ({ page, context }) => {
    // The member hint is all the server reads (a hint, not a credential): no session is needed to read a title.
    await context.addCookies([{ name: 'netnet-member', value: 'e2e-reader-without-scripts', url: siteUrl }]);
    const movie = await featured();
    await page.goto('/title/604');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(movie.title);
    for (const fact of factsOf(movie)) await expect(main.getByText(fact, { exact: true })).toBeVisible();
    await expect(main.getByText(movie.overview)).toBeVisible();
  });
});

/** Keeps, for each page load, the area's element as the server sent it, before any script can change the page. */
async function keepServerArea(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { serverArea: Element | null }).serverArea = document.querySelector('#root main')?.firstElementChild ?? null;
    });
  });
}

/**
 * The server's area kept for each load, and everything the page reports that would mean the
 * browser could not take it over: console errors (the shell logs a hydration mismatch as one),
 * hydration warnings, CSP violations.
 */
async function watchTakeOver(context: BrowserContext, page: Page): Promise<string[]> {
  const problems = await collectCspViolations(context);
  await keepServerArea(context);
  page.on('console', (message) => {
    if (message.type() === 'error' || (message.type() === 'warning' && /hydrat|server’s render/i.test(message.text()))) {
      problems.push(`${new URL(page.url()).pathname}: ${message.text()}`);
    }
  });
  return problems;
}

/** React took over the very element the server sent (it carries React's fiber), rather than rendering one of its own. */
async function expectTakenOver(page: Page, path: string): Promise<void> {
  await whenAppRuns(page);
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const area = (window as unknown as { serverArea: Element | null }).serverArea;
          return area !== null && area.isConnected && Object.keys(area).some((key) => key.startsWith('__reactFiber$'));
        }),
      { message: `${path}: the browser took over the server's render` },
    )
    .toBe(true);
}

/** Requests the page makes to the catalogue for title 604 (details, credits, videos…). */
function watchTitleRequests(page: Page, which: RegExp): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith(`${catalogueApi}/movie/604`) && which.test(url.slice(catalogueApi.length))) seen.push(url);
  });
  return seen;
}

test.describe('visitors', () => {
  test.use(asVisitor);

  test('every page is taken over without a mismatch, a console error or a CSP violation; members’ pages give the landing page', async ({ page, context }) => {
    const problems = await watchTakeOver(context, page);
    for (const path of PAGES) {
      await page.goto(path);
      await expectTakenOver(page, path);
      if (path === '/login') await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
      else {
        await expect(page, path).toHaveURL(`${siteUrl}/`);
        await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
        // The form runs once the page is taken over.
        await expect(page.getByRole('button', { name: 'Get Started' })).toBeEnabled();
      }
    }
    expect(problems).toEqual([]);
  });

  test('a visitor’s /browse is answered with the landing page itself, and ends on /', async ({ page }) => {
    const response = await page.goto('/browse');
    expect(response?.status()).toBe(200);
    expect(await response?.text()).toContain(TAGLINE);
    await expect(page).toHaveURL(`${siteUrl}/`);
    await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  });

  test('the featured title comes with the landing page: shown, and never asked for by the browser', async ({ page, context }) => {
    await keepServerArea(context);
    const movie = await featured();
    const asked = watchTitleRequests(page, /^\/movie\/604\?/);
    await page.goto('/');
    await expect(page.getByRole('figure')).toHaveText(`Featured: ${movie.title}`);
    await expectTakenOver(page, '/');
    await pageSettled(page);
    expect(asked).toEqual([]);
  });
});

test.describe('a signed-in member', () => {
  test('every page is taken over without a mismatch, a console error or a CSP violation, My list filled in', async ({ page, context }) => {
    const problems = await watchTakeOver(context, page);
    // A saved title: My list and the title's My list button fill in after the page is taken over.
    await page.goto('/title/604');
    await expectTakenOver(page, '/title/604');
    const myList = page.getByRole('main').getByRole('button', { name: 'My list' });
    await expect(myList).toHaveAttribute('aria-disabled', 'false');
    await myList.click();
    await expect(myList).toHaveAttribute('aria-pressed', 'true');
    // The button is unavailable while the save is written; leaving before then could lose it.
    await expect(myList).toHaveAttribute('aria-disabled', 'false');

    for (const path of PAGES) {
      await page.goto(path);
      await expectTakenOver(page, path);
      await expect(page, path).toHaveURL(`${siteUrl}${VISITOR_PAGES.includes(path) ? '/browse' : path}`);
      await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
    }
    await page.goto('/my-list');
    await expectTakenOver(page, '/my-list');
    await expect(page.getByRole('list', { name: 'Saved titles' }).getByRole('link')).toHaveCount(1);
    expect(problems).toEqual([]);
  });

  test('a title page’s details come with the page: shown, and never asked for by the browser', async ({ page, context }) => {
    await keepServerArea(context);
    const movie = await featured();
    // Its details, credits, videos and recommendations: all of them the server's.
    const asked = watchTitleRequests(page, /^\/movie\/604[?/]/);
    await page.goto('/title/604');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(movie.title);
    await expect(main.getByText(movie.overview)).toBeVisible();
    await expectTakenOver(page, '/title/604');
    await pageSettled(page);
    expect(asked).toEqual([]);
  });

  test('a deep link lands on the page asked for, and stays once the sign-in service has answered; a hint alone does not', async ({
    page,
    context,
    browser,
  }) => {
    const hintSetAt = async (where: BrowserContext) => (await where.cookies(siteUrl)).find((cookie) => cookie.name === 'netnet-member')?.expires;
    const before = await hintSetAt(context);
    expect(before, 'the signed-in member carries the hint').toBeDefined();
    const movie = await featured();
    await page.goto('/title/604');
    await expect(page).toHaveURL(`${siteUrl}/title/604`);
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(movie.title);
    // Firebase's answer, when it loads after the first page, renews the hint: the session is real.
    await expect.poll(() => hintSetAt(context), { timeout: 15_000 }).toBeGreaterThan(before!);
    await expect(page).toHaveURL(`${siteUrl}/title/604`);
    await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();

    // The same hint without a session (signed out on this browser elsewhere): the page is rendered
    // from the hint, and Firebase's answer then takes the visitor to the landing page.
    const stale = await browser.newContext({ baseURL: siteUrl, storageState: { cookies: [], origins: [] } });
    await stale.addCookies([{ name: 'netnet-member', value: 'e2e-signed-out-elsewhere', url: siteUrl }]);
    const elsewhere = await stale.newPage();
    await elsewhere.goto('/title/604');
    await expect(elsewhere.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(movie.title);
    await expect(elsewhere).toHaveURL(`${siteUrl}/`, { timeout: 15_000 });
    await expect(elsewhere.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
    expect(await hintSetAt(stale), 'the stale hint is cleared').toBeUndefined();
    await stale.close();
  });
});

// Server fallbacks, with real releases of remote-auth (the visitors' area) published for this spec
// by the release CLI, in a rollout environment of its own, served by a shell of its own
// (support/specShell.ts). The server builds are unminified, so a copy of a production build is
// broken in its text before it is published: its release records the broken file's hash, so the
// server loads it as published.

const root = resolve(__dirname, '../..');
const REMOTE = 'remote-auth';
const run = Date.now().toString(36);
const STABLE = `3.0.0-e2e.${run}`;
/** Its server build throws while rendering / and never finishes rendering /login. */
const CANARY = `3.1.0-e2e.${run}`;
/** A stable release without a server build. */
const BARE = `3.2.0-e2e.${run}`;
const ENVIRONMENT = `e2e-ssr-${run}`;
const THROWN = 'injected by the server-render spec: this server build throws';

const withShell = testWithShell(ENVIRONMENT);

const cli = deployCli(ENVIRONMENT);

/** The remote's production build copied as `version`, into a folder of our own. */
function buildAs(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), `netnet-${REMOTE}-${version}-`));
  copyBuildAs({ root, remote: REMOTE, version, copy: dir });
  return dir;
}

/** Puts `code` at the start of a page component's body in the server build's text. */
function breakPage(serverEntry: string, component: string, code: string): void {
  const text = readFileSync(serverEntry, 'utf8');
  const start = `function ${component}() {`;
  if (text.split(start).length !== 2) throw new Error(`${serverEntry} has no single ${start}`);
  writeFileSync(serverEntry, text.replace(start, `${start}\n${code}`));
}

/** The state the server wrote into the page: which release it rendered the area with. */
interface Rendered {
  version: string;
  channel: string;
  fellBackFrom?: { version: string; channel: string; reason: string };
}
function renderedWith(html: string): Rendered | undefined {
  const json = /<script type="application\/json" id="netnet-state">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error('the page carries no server state');
  return (JSON.parse(json) as { chosen: Record<string, Rendered> }).chosen[REMOTE];
}

/** The release of remote-auth the browser loaded (window['netnet:remotes']). */
const loadedAuth = (page: Page) =>
  page.evaluate(() => (window as unknown as { 'netnet:remotes'?: Record<string, Rendered & { state: string }> })['netnet:remotes']?.['remote-auth']);

/** The sign-up form works: the browser runs it (a blurred empty email is told so). */
async function expectWorkingSignUp(page: Page): Promise<void> {
  const email: Locator = page.getByLabel('Email address', { exact: true });
  await email.focus();
  await page.getByLabel('Password', { exact: true }).focus();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
}

withShell.describe('server fallbacks', () => {
  withShell.describe.configure({ mode: 'serial' });

  withShell.beforeAll(async ({ specShell }) => {
    // Three releases published and their render processes started.
    withShell.setTimeout(180_000);
    const stable = buildAs(STABLE);
    await cli('release', REMOTE, '--version', STABLE, '--from', stable);

    const canary = buildAs(CANARY);
    breakPage(join(canary, 'server', 'remoteEntry.js'), 'Landing', `throw new Error(${JSON.stringify(THROWN)});`);
    // A promise that never settles: the render waits on it for good.
    breakPage(join(canary, 'server', 'remoteEntry.js'), 'Login', 'throw new Promise(() => {});');
    await cli('release', REMOTE, '--version', CANARY, '--from', canary);

    const bare = buildAs(BARE);
    rmSync(join(bare, 'server'), { recursive: true, force: true });
    await cli('release', REMOTE, '--version', BARE, '--from', bare);
    for (const dir of [stable, canary, bare]) rmSync(dir, { recursive: true, force: true });

    await cli('rollout', 'stable', REMOTE, STABLE);
    // The stable's render processes ready before the canary arrives, as a site that served it
    // would have them: the fallbacks below are then timed by the canary alone, even on a busy machine.
    await untilRenderProcessesReady(specShell.url, REMOTE, STABLE);
    await cli('rollout', 'canary', REMOTE, CANARY, '--percent', '100');
    await untilRenderProcessesReady(specShell.url, REMOTE, CANARY);
  });

  withShell.afterAll(async () => {
    const deployDir = site.readSite().deployDir;
    for (const version of [STABLE, CANARY, BARE]) rmSync(join(deployDir, REMOTE, version), { recursive: true, force: true });
    await forgetEnvironment(ENVIRONMENT);
    await forgetReleases(REMOTE, [STABLE, CANARY, BARE]);
    const folder = join(deployDir, REMOTE);
    if (existsSync(folder) && readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
  });

  withShell('a canary whose server build throws: the server answers with stable’s render, and the page works', async ({ page, request, baseURL, specShell }) => {
    const fellBack = async () => sumOf(await metricsOf(baseURL!), 'netnet_health_reports_total', { release: CANARY, channel: 'canary', outcome: 'fell-back' });
    const before = await fellBack();
    let html = '';
    const reports = await specShell.logged(async () => {
      const response = await request.get('/');
      expect(response.status()).toBe(200);
      html = await response.text();
    });
    expect(reports.join('\n')).toContain(`${REMOTE} ${CANARY} (canary) failed to render / on the server: ${JSON.stringify(THROWN)}`);
    // The canary's own fault: the page says so, and the server that saw it counts it against the canary.
    expect(renderedWith(html)).toMatchObject({ version: STABLE, channel: 'stable', fellBackFrom: { version: CANARY, channel: 'canary', reason: `on the server: ${THROWN}`, counted: true } });
    await expect.poll(fellBack).toBe(before + 1);
    expect(html).toContain(TAGLINE);
    // The head links the files hydration needs: stable's.
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`/${REMOTE}/${STABLE}/`);
    expect(head).not.toContain(`/${REMOTE}/${CANARY}/`);

    const beacon = page.waitForRequest((sent) => sent.method() === 'POST' && new URL(sent.url()).pathname === '/health/reports');
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
    await whenAppRuns(page);
    expect(await loadedAuth(page)).toMatchObject({ version: STABLE, channel: 'stable', state: 'loaded', fellBackFrom: { version: CANARY, channel: 'canary' } });
    // The server counted the canary's failure; the page reports the stable that served it, and
    // says nothing of a canary it never ran (its ticket does not name it).
    const sent = JSON.parse((await beacon).postData() ?? '{}') as { ticket?: string; reports: { release: string }[] };
    expect(sent.ticket).toEqual(expect.any(String));
    expect(sent.reports).toContainEqual({ remote: REMOTE, release: STABLE, channel: 'stable', outcome: 'loaded' });
    expect(sent.reports.map((report) => report.release)).not.toContain(CANARY);
    await expect.poll(fellBack).toBe(before + 2);
    await expectWorkingSignUp(page);
  });

  withShell('a canary whose server build hangs: stable’s render, answered within about a second', async ({ page, request, specShell }) => {
    let html = '';
    let took = 0;
    const reports = await specShell.logged(async () => {
      const started = Date.now();
      const response = await request.get('/login');
      took = Date.now() - started;
      expect(response.status()).toBe(200);
      html = await response.text();
    });
    expect(reports.join('\n')).toContain(`${REMOTE} ${CANARY} (canary) failed to render /login on the server`);
    console.log(`a hanging canary's /login answered with stable's render in ${took} ms (bound 1500 ms)`);
    expect(took, 'the render budget (300 ms) and its grace (200 ms), then stable').toBeLessThan(1_500);
    expect(renderedWith(html)).toMatchObject({ version: STABLE, channel: 'stable' });
    // Slowness may be the server's, not the release's: not counted against the canary.
    expect(renderedWith(html)?.fellBackFrom).toBeUndefined();
    expect(html).toContain('New to Netnet?');

    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
    await whenAppRuns(page);
    expect(await loadedAuth(page)).toMatchObject({ version: STABLE, channel: 'stable', state: 'loaded' });
    await expectWorkingSignUp(page);
  });

  withShell('a stable release without a server build: the page comes with the area to render, and the browser renders it', async ({ page, request, specShell }) => {
    await cli('rollout', 'rollback', REMOTE);
    await cli('rollout', 'stable', REMOTE, BARE);
    let html = '';
    const reports = await specShell.logged(async () => {
      const response = await request.get('/');
      expect(response.status()).toBe(200);
      html = await response.text();
    });
    expect(reports.join('\n')).toContain(`${REMOTE} ${BARE} (stable) could not render on the server`);
    expect(renderedWith(html)).toBeUndefined();
    expect(html).not.toContain(TAGLINE);
    expect(html).toContain('aria-label="Loading this part of Netnet"');
    // The shell's frame is the server's.
    expect(html).toContain('aria-label="Netnet home"');

    const consoleErrors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'This part of Netnet is unavailable right now' })).toHaveCount(0);
    await whenAppRuns(page);
    expect(await loadedAuth(page)).toMatchObject({ version: BARE, channel: 'stable', state: 'loaded' });
    await expectWorkingSignUp(page);
    expect(consoleErrors).toEqual([]);
  });
});
