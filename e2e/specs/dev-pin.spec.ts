import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page, Response } from '@playwright/test';
import { expect } from '../support/test';
import { createMember, signIn, type TestMember } from '../support/members';
import { forgetEnvironment } from '../support/controlPlane';
import { collectCspViolations } from '../support/cspViolations';
import { testWithShell } from '../support/specShell';
import { originOf } from '../support/site';

// Develop against the real site (docs/releases.md): a developer runs remote-title's webpack dev
// server (`npm run dev -w remote-title`) and, with a QA token, pins remote-title to it in their
// browser; the area comes from there (live reload connected), the banner says so, the page's policy
// allows that origin for this browser only, and the server renders the rest of the page, leaving
// that area to the browser. Another browser gets the usual release and policy; a non-loopback
// origin, or a pin without a valid token, is refused.
//
// The dev server is the real one, as a developer starts it, on a free loopback port: 3003, its usual
// port, is where `npm start` serves remote-title's own build, so it gets `--port` (and `--host
// 127.0.0.1`: nothing here listens beyond this machine). Its development build takes seconds with
// webpack's cache.
//
// The pages come from a shell of the spec's own (support/specShell.ts) for an environment of its
// own, given a QA secret of its own, so no other spec's pages or policies change.

const SECRET = `e2e-dev-pin-${Date.now().toString(36)}`;
const secretBefore = process.env.NETNET_QA_SECRET;
process.env.NETNET_QA_SECRET = SECRET;
const ENVIRONMENT = `e2e-dev-pin-${Date.now().toString(36)}`;
const REMOTE = 'remote-title';
const root = resolve(__dirname, '../..');
const execute = promisify(execFile);

const test = testWithShell(ENVIRONMENT);
test.describe.configure({ mode: 'serial' });


let devServer: ChildProcess | undefined;
let devOutput = '';
let DEV: string;
let member: TestMember;
let token: () => string;

/** A port nothing listens on now, on this machine. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

test.beforeAll(async () => {
  // A cold development build on two cores, the first time.
  test.setTimeout(240_000);
  const port = await freePort();
  DEV = `http://127.0.0.1:${port}`;
  // Its own process group, so stopping it stops webpack too.
  devServer = spawn('npm', ['run', 'dev', '-w', REMOTE, '--', '--port', String(port), '--host', '127.0.0.1'], { cwd: root, detached: true });
  devServer.stdout?.on('data', (chunk: Buffer) => (devOutput += chunk.toString()));
  devServer.stderr?.on('data', (chunk: Buffer) => (devOutput += chunk.toString()));
  member = await createMember();
  // Made for this spec as a developer's is, by the CLI: signed with the site's secret and recorded in its store.
  const made = (await execute('npm', ['run', '--silent', 'qa-token', '--', '--for', 'dev-pin spec', '--env', ENVIRONMENT, '--hours', '1'], { cwd: root, env: { ...process.env, NETNET_QA_SECRET: SECRET } })).stdout.trim();
  token = () => made;
  const deadline = Date.now() + 200_000;
  while (!(await fetch(`${DEV}/mf-manifest.json`).then((response) => response.ok, () => false))) {
    if (devServer.exitCode !== null || Date.now() > deadline) throw new Error(`remote-title's dev server did not start:\n${devOutput}`);
    await new Promise((done) => setTimeout(done, 500));
  }
});

test.afterAll(async () => {
  if (devServer?.pid && devServer.exitCode === null) {
    const exited = new Promise((done) => devServer!.once('exit', done));
    process.kill(-devServer.pid, 'SIGTERM');
    await exited;
  }
  await forgetEnvironment(ENVIRONMENT);
  if (secretBefore === undefined) delete process.env.NETNET_QA_SECRET;
  else process.env.NETNET_QA_SECRET = secretBefore;
});

interface Loaded {
  version: string;
  channel: string;
  entry: string;
  state: string;
}

const loadedTitle = (page: Page) =>
  page.evaluate((remote) => (window as unknown as { 'netnet:remotes'?: Record<string, Loaded> })['netnet:remotes']?.[remote], REMOTE);

/** A signed-in member's browser, with every request it makes kept. */
async function memberBrowser(context: BrowserContext): Promise<{ page: Page; requests: string[]; violations: string[]; errors: string[] }> {
  const violations = await collectCspViolations(context);
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await signIn(page, member);
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  return { page, requests, violations, errors };
}

/** Opens a title page and waits for its area: the movie's heading. */
async function openTitle(page: Page, query = ''): Promise<Response> {
  const response = await page.goto(`/title/604${query}`);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('This part of Netnet is unavailable right now')).toHaveCount(0);
  await expect.poll(async () => (await loadedTitle(page))?.state).toBe('loaded');
  return response!;
}

const policyOf = async (response: Response) => (await response.allHeaders())['content-security-policy'] ?? '';
const banner = (page: Page) => page.getByRole('status').filter({ hasText: /dev server/i });

test('a QA token pins remote-title to a loopback dev server in this browser only: the area, the banner, the policy, the server render', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const { page, requests, violations, errors } = await memberBrowser(context);

  requests.length = 0;
  // Live reload: the dev server's websocket, to localhost on its port (allowed by this page's
  // policy), tells the page the build it serves.
  const liveReload = new Promise<string>((connected) =>
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (String(payload) === '{"type":"ok"}') connected(socket.url());
      }),
    ),
  );
  const first = await openTitle(page, `?qa-token=${token()}&remote.${REMOTE}=dev:${DEV}`);
  expect(await loadedTitle(page)).toMatchObject({ version: 'dev', channel: 'dev', entry: `${DEV}/mf-manifest.json` });
  await expect(banner(page)).toHaveText(new RegExp(`${REMOTE} comes from the dev server at ${DEV.replace(/\./g, '\\.')}, in this browser only\\.`));
  // The area's files came from the dev server, none from remote-title's usual origin.
  expect(requests).toContain(`${DEV}/remoteEntry.js`);
  expect(requests).toContain(`${DEV}/__federation_expose_MovieDetail.js`);
  expect(requests.filter((url) => url.startsWith(`${originOf(REMOTE)}/`))).toEqual([]);
  const noSocket = new Promise<string>((done) => setTimeout(() => done('no live reload connection within 10 s'), 10_000));
  expect(await Promise.race([liveReload, noSocket])).toBe(`ws://localhost:${new URL(DEV).port}/ws`);
  // Its policy names the dev server; the pin is out of the address bar, so no shared link carries it.
  for (const directive of ['script-src', 'style-src', 'connect-src', 'img-src']) expect(await policyOf(first)).toMatch(new RegExp(`${directive} [^;]*${DEV.replace(/\./g, '\\.')}`));
  expect(page.url()).toBe(`${baseURL}/title/604`);

  // The next load: the pin comes with the browser's cookie; the server renders the page around the
  // area it leaves to the browser (it cannot reach a developer's machine), and the browser takes it over.
  requests.length = 0;
  const again = await openTitle(page);
  expect(await policyOf(again)).toContain(DEV);
  expect(await loadedTitle(page)).toMatchObject({ channel: 'dev', entry: `${DEV}/mf-manifest.json` });
  await expect(banner(page)).toBeVisible();
  expect(requests).toContain(`${DEV}/remoteEntry.js`);
  const html = await (await context.request.get('/title/604')).text();
  expect(html).toContain('aria-label="Profile menu"'); // the frame, rendered for the member
  const state = JSON.parse(/<script type="application\/json" id="netnet-state">(.*?)<\/script>/s.exec(html)![1]!) as {
    chosen: Record<string, unknown>;
    map: { remotes: Record<string, { dev?: { origin: string } }> };
  };
  expect(state.chosen[REMOTE]).toBeUndefined();
  expect(state.map.remotes[REMOTE]?.dev).toEqual({ origin: DEV, entry: `${DEV}/mf-manifest.json` });
  expect(violations).toEqual([]);
  // The browser took the server's page over without a complaint (the area it was left is expected).
  expect(errors).toEqual([]);

  // Clear: the server drops the cookie; the page is what members get again.
  await banner(page).getByRole('button', { name: 'Clear overrides' }).click();
  await expect(page).toHaveURL(`${baseURL}/title/604`);
  await expect.poll(async () => (await loadedTitle(page))?.state).toBe('loaded');
  expect(await loadedTitle(page)).toMatchObject({ channel: 'stable', entry: `${originOf(REMOTE)}/mf-manifest.json` });
  await expect(banner(page)).toHaveCount(0);
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('netnet-dev-pin');
  await context.close();
});

test('another browser gets the usual release and the usual policy', async ({ browser, baseURL }) => {
  const pinned = await browser.newContext({ baseURL });
  const { page: pinnedPage } = await memberBrowser(pinned);
  const pinnedResponse = await openTitle(pinnedPage, `?qa-token=${token()}&remote.${REMOTE}=dev:${DEV}`);
  expect(await policyOf(pinnedResponse)).toContain(DEV);

  const other = await browser.newContext({ baseURL });
  const { page, requests, violations } = await memberBrowser(other);
  const response = await openTitle(page);
  expect(await policyOf(response)).not.toContain(DEV);
  expect(await policyOf(response)).toBe(await policyOf(await page.goto('/browse').then((r) => r!)));
  await openTitle(page);
  expect(await loadedTitle(page)).toMatchObject({ channel: 'stable', entry: `${originOf(REMOTE)}/mf-manifest.json` });
  expect(requests.filter((url) => url.startsWith(DEV))).toEqual([]);
  await expect(banner(page)).toHaveCount(0);
  expect(violations).toEqual([]);
  await Promise.all([pinned.close(), other.close()]);
});

test('a non-loopback origin, or a dev pin without a valid token, is refused with the reason; the page is what members get', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const { page, requests } = await memberBrowser(context);

  const refused = await openTitle(page, `?qa-token=${token()}&remote.${REMOTE}=dev:http://example.com:3003`);
  await expect(banner(page)).toHaveText(
    `Dev server not pinned for ${REMOTE}: http://example.com:3003 is refused: only a dev server on this machine can be pinned: ` +
      'http://localhost:<port>, http://127.0.0.1:<port> or http://[::1]:<port>. This page loads what members get.',
  );
  expect(await policyOf(refused)).not.toContain('example.com');
  expect(await loadedTitle(page)).toMatchObject({ channel: 'stable', entry: `${originOf(REMOTE)}/mf-manifest.json` });
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('netnet-dev-pin');

  // A loopback origin, but no valid token: refused too.
  await context.clearCookies({ name: 'netnet-dev-pin' });
  await page.evaluate(() => sessionStorage.clear());
  const untokened = await openTitle(page, `?qa-token=1999999999.${'a'.repeat(43)}&remote.${REMOTE}=dev:${DEV}`);
  await expect(banner(page)).toContainText(`Dev server not pinned for ${REMOTE}: ${DEV} is refused: a dev server pin needs a valid QA token`);
  expect(await policyOf(untokened)).not.toContain(DEV);
  expect(requests.filter((url) => url.startsWith(DEV))).toEqual([]);
  await context.close();
});
