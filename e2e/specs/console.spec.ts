import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { copyBuildAs } from '../support/buildCopy.mjs';
import { forgetEnvironment, forgetReleases } from '../support/controlPlane';
import { commandArgs, deployCli } from '../support/deployCli';
import { testWithShell } from '../support/specShell';
import { expect } from '../support/test';

// The release console (docs/releases.md, "A release owner's day in the console") in Chromium,
// against the control-plane API `npm start` runs: a person signs in with the link
// `npm run tokens -- create … --person` prints, finds their remote first and remote-search's
// actions disabled (and a forged request for them refused), moves remote-title's canary to 20 %
// with a reason the audit trail shows (which /remotes.json then serves), sees a CLI change without
// reloading, meets a 409 from a concurrent CLI change, the guard's evidence before a promote and a
// rolled-back version marked so, is told once that an environment is outside the token, is
// refused once their token is revoked, and every page passes axe. Its rollout is an environment
// of its own, served by a shell of the spec's own; everything is removed afterwards.
// NETNET_SCREENSHOTS=<folder> also writes the screenshots docs/releases.md shows there.

const root = resolve(__dirname, '../..');
const run = Date.now().toString(36);
const ENVIRONMENT = `e2e-console-${run}`;
const PERSON = `console-${run}`;
const STABLE = `3.0.0-e2e.${run}`;
const CANARY = `3.1.0-e2e.${run}`;
const REMOTES = ['remote-title', 'remote-search'];
const CONSOLE = 'http://127.0.0.1:8070/console/';

const test = testWithShell(ENVIRONMENT);
test.describe.configure({ mode: 'serial' });

const cli = deployCli(ENVIRONMENT);
const execute = promisify(execFile);
const tokens = async (...args: string[]) => (await execute(process.execPath, commandArgs('tokens', ...args), { cwd: root })).stdout.trim();

let staging: string;
let link: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  staging = mkdtempSync(join(tmpdir(), 'netnet-console-'));
  for (const remote of REMOTES) {
    for (const version of [STABLE, CANARY]) {
      const copy = join(staging, `${remote}-${version}`);
      copyBuildAs({ root, remote, version, copy });
      await cli('release', remote, '--version', version, '--from', copy);
    }
    await cli('rollout', 'stable', remote, STABLE);
    await cli('rollout', 'canary', remote, CANARY, '--percent', '10');
  }
  link = await tokens('create', PERSON, '--remotes', 'remote-title', '--environments', ENVIRONMENT, '--actions', 'canary,promote,rollback,status', '--person');
});

test.afterAll(async () => {
  await tokens('revoke', PERSON).catch(() => {});
  await forgetEnvironment(ENVIRONMENT);
  for (const remote of REMOTES) {
    for (const version of [STABLE, CANARY]) rmSync(join(root, 'deploy', remote, version), { recursive: true, force: true });
    await forgetReleases(remote, [STABLE, CANARY]);
  }
  rmSync(staging, { recursive: true, force: true });
});

/** The console's own messages in the page's console, but for the API's answers a test provokes on purpose (403, 409, 401). */
function consoleErrors(page: Page, expectedStatuses: number[] = []) {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = /status of (\d{3})/.exec(message.text())?.[1];
    if (status && expectedStatuses.includes(Number(status))) return;
    errors.push(message.text());
  });
  return errors;
}

/** A screenshot for the docs, when NETNET_SCREENSHOTS names a folder for them (of `what` alone, else the page). */
async function screenshot(page: Page, name: string, what?: Locator) {
  const folder = process.env.NETNET_SCREENSHOTS;
  if (!folder) return;
  const path = join(resolve(root, folder), `${name}.png`);
  await (what ? what.screenshot({ path }) : page.screenshot({ path }));
}

const card = (page: Page, remote: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: remote, exact: true }) });

/** Signs in with a fresh link (each is used once) and opens the environment. */
async function signIn(page: Page) {
  const fresh = link || (await tokens('link', PERSON));
  link = '';
  await page.goto(fresh);
  await expect(page.getByRole('heading', { name: `Every remote in ${ENVIRONMENT}` })).toBeVisible();
}

test('a person signs in with the link the tokens command prints', async ({ page, context }) => {
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:8070\/console\/#sign-in=[A-Za-z0-9_-]{43}$/);
  const errors = consoleErrors(page);
  const used = link;
  await signIn(page);
  // The secret leaves the address bar; the session is an HttpOnly, SameSite=Strict cookie.
  expect(page.url()).toBe(CONSOLE);
  const [cookie] = (await context.cookies()).filter((one) => one.name === 'netnet-console');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000);
  await expect(page.getByText(`Signed in as ${PERSON}`)).toBeVisible();
  await expect(card(page, 'remote-title').getByText(`${CANARY} at 10 %`)).toBeVisible();
  // The remote the person may act on comes first, before those outside the token.
  await expect(page.getByRole('listitem').getByRole('heading', { level: 3 }).first()).toHaveText('remote-title');
  await screenshot(page, 'console-owner-first');
  // The link was used: a second browser cannot sign in with it.
  const other = await context.browser()!.newContext();
  const second = await other.newPage();
  await second.goto(used);
  await expect(second.getByText(/unknown, used already or expired/)).toBeVisible();
  await other.close();
  expect(errors).toEqual([]);
});

test('remote-search is out of scope: its actions are disabled with the reason, and a forged request is refused', async ({ page }) => {
  await signIn(page);
  const search = card(page, 'remote-search');
  for (const name of ['Set canary share remote-search', 'Promote remote-search', 'Roll back remote-search']) {
    const button = search.getByRole('button', { name });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(`${PERSON} covers remote-title only.`);
  }
  await expect(card(page, 'remote-title').getByRole('button', { name: 'Set canary share remote-title' })).toBeEnabled();
  // The same request the button would send, forged from the page with the session's own CSRF token.
  const forged = await page.evaluate(async (environment) => {
    const { csrf } = (await (await fetch('/console/api/session')).json()) as { csrf: string };
    const response = await fetch(`/v1/environments/${environment}/remotes/remote-search/canary`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-Netnet-CSRF': csrf },
      body: JSON.stringify({ version: '1.0.0', percent: 50 }),
    });
    return { status: response.status, body: (await response.json()) as { error: string } };
  }, ENVIRONMENT);
  expect(forged.status).toBe(403);
  expect(forged.body.error).toContain('may not canary remote-search');
  await expect(card(page, 'remote-search').getByText(`${CANARY} at 10 %`)).toBeVisible();
});

test('moving the canary to 20 % says what members will get, asks why, and /remotes.json serves it', async ({ page, request }) => {
  const errors = consoleErrors(page);
  await signIn(page);
  // By keyboard, as a person who never leaves it does.
  const opener = card(page, 'remote-title').getByRole('button', { name: 'Set canary share remote-title' });
  await opener.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Set the canary: remote-title in ${ENVIRONMENT}` });
  const share = dialog.getByLabel('Share of members (%)');
  // A share out of range says what is wrong, and only that.
  await share.fill('150');
  await expect(share).toHaveAccessibleDescription('Give a whole number from 0 to 100, like 20.');
  await expect(dialog.getByText('Checking what this change would do…')).toHaveCount(0);
  await expect(dialog.getByText('What members will get')).toHaveCount(0);
  await screenshot(page, 'console-share-150', dialog);
  await share.fill('20');
  await expect(dialog.getByText(`20 % of members get remote-title ${CANARY} (the canary); the other 80 % get ${STABLE}.`, { exact: false })).toBeVisible();
  await expect(dialog.getByText(/^Passes: the shell provides everything remote-title/)).toBeVisible();
  // No change without a reason: the audit trail keeps it.
  const confirm = dialog.getByRole('button', { name: 'Confirm' });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('e2e: a clean run at 10 %');
  await screenshot(page, 'console-reason', dialog);
  await confirm.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(card(page, 'remote-title').getByText(`${CANARY} at 20 %`)).toBeVisible();
  // Focus is back on the button that opened the dialog.
  await expect(opener).toBeFocused();
  await screenshot(page, 'console-focus-back', card(page, 'remote-title'));
  const map = (await (await request.get('/remotes.json')).json()) as { remotes: Record<string, { canary?: { version: string; percent: number } }> };
  expect(map.remotes['remote-title']?.canary).toMatchObject({ version: CANARY, percent: 20 });
  // The audit trail names the person, and says why.
  await page.getByRole('link', { name: 'Audit trail' }).click();
  const row = page.getByRole('row').filter({ hasText: `person:${PERSON}` }).first();
  await expect(row).toContainText('canary');
  await expect(row.getByRole('cell').last()).toHaveText('e2e: a clean run at 10 %');
  await screenshot(page, 'console-audit-why', page.getByRole('table'));
  expect(errors).toEqual([]);
});

test('a change made with the CLI appears without a reload', async ({ page }) => {
  await signIn(page);
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await cli('rollout', 'canary', 'remote-title', CANARY, '--percent', '30');
  const set = Date.now();
  await expect(card(page, 'remote-title').getByText(`${CANARY} at 30 %`)).toBeVisible({ timeout: 3_000 });
  console.log(`the console showed the CLI's change ${Date.now() - set} ms after the command returned`);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test('a signed-in console opens drawn by the server, and React takes that view over, or draws the one the address asks for', async ({ page }) => {
  const errors = consoleErrors(page);
  await signIn(page);
  // The page itself carries the first view (the figures in a JSON data block, its HTML in #root).
  const served = await (await page.request.get(CONSOLE)).text();
  expect(served).toContain(`<h2>Every remote in <!-- -->${ENVIRONMENT}</h2>`);
  expect(served).toMatch(/<script type="application\/json" id="console-boot">/);
  await page.goto(CONSOLE);
  await expect(page).toHaveTitle(`Remotes · ${ENVIRONMENT} · Netnet release console`);
  // Hydrated: its buttons answer.
  await card(page, 'remote-title').getByRole('button', { name: 'Set canary share remote-title' }).click();
  await expect(page.getByRole('dialog', { name: `Set the canary: remote-title in ${ENVIRONMENT}` })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  // A link to another view, opened afresh: the server cannot see the fragment; the browser draws the view it names.
  await page.goto('about:blank');
  await page.goto(`${CONSOLE}#/${ENVIRONMENT}/audit`);
  await expect(page.getByRole('heading', { name: `Audit trail of ${ENVIRONMENT}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: `Every remote in ${ENVIRONMENT}` })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a 409 from a concurrent CLI change is shown, and the view shows the change', async ({ page }) => {
  const errors = consoleErrors(page, [409]);
  await signIn(page);
  await card(page, 'remote-title').getByRole('button', { name: 'Set canary share remote-title' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Share of members (%)').fill('35');
  await expect(dialog.getByText(/^Passes:/)).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('e2e: widen on');
  // Someone else moves it while the dialog is open.
  await cli('rollout', 'canary', 'remote-title', CANARY, '--percent', '40');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(/Someone else changed it first, so nothing was changed/)).toContainText(
    `remote-title went from stable ${STABLE}, canary ${CANARY} at 30 % to stable ${STABLE}, canary ${CANARY} at 40 %`,
  );
  await expect(card(page, 'remote-title').getByText(`${CANARY} at 40 %`)).toBeVisible();
  expect(errors).toEqual([]);
});

test("Promote shows the guard's state and evidence, and warns while it is inconclusive", async ({ page }) => {
  const errors = consoleErrors(page);
  await signIn(page);
  const promote = card(page, 'remote-title').getByRole('button', { name: 'Promote remote-title' });
  await promote.click();
  const dialog = page.getByRole('dialog', { name: `Promote the canary: remote-title in ${ENVIRONMENT}` });
  await expect(dialog.getByRole('heading', { name: "The guard's evidence" })).toBeVisible();
  await expect(dialog.getByText('Guard: Waiting')).toBeVisible();
  await expect(dialog.getByText(/^Evidence: canary 0 failed of 0 sessions/)).toBeVisible();
  await expect(dialog.getByText(/^Warning:/)).toHaveText(
    `Warning: the guard's evidence is inconclusive: too few canary sessions yet (0). Promoting now sends every member to remote-title ${CANARY} before the guard could tell whether it fails more than ${STABLE}.`,
  );
  await screenshot(page, 'console-promote-guard', dialog);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(promote).toBeFocused();
  expect(errors).toEqual([]);
});

test('a version just rolled back is offered marked as such, never said to pass', async ({ page }) => {
  const errors = consoleErrors(page);
  await cli('rollout', 'rollback', 'remote-title');
  await signIn(page);
  await card(page, 'remote-title').getByRole('button', { name: 'Set canary share remote-title' }).click();
  const dialog = page.getByRole('dialog', { name: `Set the canary: remote-title in ${ENVIRONMENT}` });
  // Other specs' releases of remote-title may be offered too: this one is marked, and chosen here.
  await expect(dialog.getByRole('option', { name: `${CANARY} (rolled back)` })).toHaveCount(1);
  await dialog.getByRole('combobox', { name: 'Version' }).selectOption(CANARY);
  await expect(dialog.getByText(/^Compatible, but rolled back:/)).toBeVisible();
  await expect(dialog.getByText(/^Warning:/)).toContainText(`remote-title ${CANARY} was rolled back`);
  await expect(dialog.getByText(/^Passes:/)).toHaveCount(0);
  await screenshot(page, 'console-rolled-back', dialog);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // The canary back as it was, for the tests after this one.
  await cli('rollout', 'canary', 'remote-title', CANARY, '--percent', '40');
  expect(errors).toEqual([]);
});

test('#/audit opens the audit trail; an environment outside the token is said so once, and nothing of it is read', async ({ page }) => {
  const errors = consoleErrors(page);
  await signIn(page);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/environments/production')) asked.push(request.url());
  });
  // A view named without its environment is that view of the first one.
  await page.goto('about:blank');
  await page.goto(`${CONSOLE}#/audit`);
  await expect(page.getByRole('heading', { name: `Audit trail of ${ENVIRONMENT}` })).toBeVisible();
  await expect(page.getByRole('table', { name: `Changes in ${ENVIRONMENT}, newest first` })).toBeVisible();
  await expect(page.getByText(/Lost the control-plane API/)).toHaveCount(0);
  // The page's clocks run an hour ahead at once: a view polling every 5 s would ask 720 times.
  await page.clock.install();
  await page.goto('about:blank');
  await page.goto(`${CONSOLE}#/production`);
  await expect(page.getByRole('heading', { name: "production is outside your token's scope" })).toBeVisible();
  await page.clock.runFor('01:00:00');
  await expect(page.getByText(/outside your token's scope/)).toHaveCount(1);
  await expect(page.getByText(/Lost the control-plane API/)).toHaveCount(0);
  await expect(page.getByText('Loading…')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Environment' }).getByRole('option')).toHaveText(['Choose one', ENVIRONMENT]);
  expect(asked).toEqual([]);
  await screenshot(page, 'console-out-of-scope');
  expect(errors).toEqual([]);
});

test("a remote's chart names its marks and labels its axes", async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'remote-title', exact: true }).click();
  const sessions = page.getByRole('img', { name: /^Sessions per minute of remote-title/ });
  await expect(sessions).toHaveAccessibleName(/changes marked: \d\d:\d\d (stable|canary|rollback|promote)/);
  // Named above the chart; the person's changes, made within a few minutes, share a name whose tooltip lists each.
  await expect(sessions.locator('text.mark-label').first()).toBeVisible();
  expect((await sessions.locator('text.mark-label > title').allTextContents()).join('; ')).toContain(`canary by person:${PERSON}`);
  // Zero, half and the top on the values' axis; every ten minutes on the time axis.
  await expect(sessions.locator('text.tick')).toHaveCount(9);
  await expect(sessions.locator('text.tick').first()).toHaveText('0');
  await screenshot(page, 'console-chart-labels', page.getByRole('region', { name: 'The last hour: stable against canary' }));
});

test('every console page passes axe', async ({ page }) => {
  // Six full scans: each takes a few seconds alone, half a minute on a machine busy with other runs.
  test.setTimeout(300_000);
  const errors = consoleErrors(page);
  await signIn(page);
  const scan = async (what: string) => {
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((violation) => `${what}: ${violation.id} (${violation.nodes.length})`)).toEqual([]);
  };
  await scan('every remote');
  await page.getByRole('link', { name: 'remote-title', exact: true }).click();
  await expect(page.getByRole('heading', { name: `remote-title in ${ENVIRONMENT}` })).toBeVisible();
  await expect(page.getByRole('table', { name: /Releases of remote-title/ })).toContainText(CANARY);
  await scan('one remote');
  await page.getByRole('link', { name: 'Audit trail' }).click();
  await expect(page.getByRole('heading', { name: `Audit trail of ${ENVIRONMENT}` })).toBeVisible();
  await scan('audit trail');
  await page.goto(CONSOLE);
  await page.getByRole('link', { name: 'remote-title', exact: true }).click();
  await page.getByRole('button', { name: 'Promote remote-title' }).click();
  await expect(page.getByRole('dialog').getByText('What members will get')).toBeVisible();
  // With the guard's evidence and its warning.
  await expect(page.getByRole('dialog').getByText(/^Warning:/)).toBeVisible();
  await scan('the confirmation');
  await page.goto('about:blank');
  await page.goto(`${CONSOLE}#/production`);
  await expect(page.getByRole('heading', { name: "production is outside your token's scope" })).toBeVisible();
  await scan('an environment outside the token');
  // A phone's width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${CONSOLE}#/${ENVIRONMENT}`);
  await expect(card(page, 'remote-title')).toBeVisible();
  await scan('every remote on a phone');
  expect(errors).toEqual([]);
});

test('a revoked token\'s session is refused at its next action', async ({ page }) => {
  const errors = consoleErrors(page, [401]);
  await signIn(page);
  await card(page, 'remote-title').getByRole('button', { name: 'Roll back remote-title' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('What members will get')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('e2e: the canary goes');
  await tokens('revoke', PERSON);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toContainText(/Your session has ended: nothing was changed: a valid token is needed/);
  await expect(card(page, 'remote-title')).toHaveCount(0);
  expect(errors).toEqual([]);
});
