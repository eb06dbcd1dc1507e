import type { Page } from '@playwright/test';
import { test, expect, asVisitor } from '../../support/memberSession';
import { areaOf, expectMemberFrame, expectNavigated, fallback, mainNav } from '../../support/areas';
import { remotes } from '../../support/site';
import { breakRemote, INJECTED_ERROR, remoteFaults, type InjectedFault, type RemoteName } from '../../support/remoteFaults';

// Each remote in turn unavailable, in every way a CDN or a bad release can fail: the shell, its
// navigation and the other areas keep working, the area shows its fallback, and Retry brings it
// back once the remote is.

// A chunk that throws on evaluation raises its error in the page by design; nothing else may.
test.use({ expectedPageErrors: [new RegExp(INJECTED_ERROR)] });
test.describe.configure({ mode: 'parallel' });

/**
 * The most requests any one file met the fault with. A page the server rendered preloads the area's
 * files from its head (docs/architecture.md#server-rendering): the runtime's first attempt is that
 * preload, or one request more when a refusal is not reused (a 404).
 */
const mostOnOneFile = (fault: InjectedFault) => Math.max(0, ...fault.hitsByFile().values());

/**
 * Opens the broken area by deep link, as its visitor or signed-in member. A file that hangs can hold
 * the load event for good (a script inserted before it delays it); the member reads the page long before.
 */
async function openArea(page: Page, remote: RemoteName) {
  await page.goto(areaOf(remote).path, { waitUntil: 'domcontentloaded' });
}

/** The rest of Netnet still works: another area opens from the shell's own navigation. */
async function expectElsewhereWorks(page: Page, remote: RemoteName) {
  if (remote === 'remote-auth') {
    // A visitor's only other screen is /login, the same remote: the shell's router and header still work.
    await page.getByRole('banner').getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/login$/);
    // The landing page's fallback stays on screen while /login's load is still failing.
    await expectNavigated(page);
    await expect(fallback(page)).toBeVisible();
    return;
  }
  await expectMemberFrame(page);
  const [label, other] = remote === 'remote-search' ? (['Home', 'remote-browse'] as const) : (['Search', 'remote-search'] as const);
  await mainNav(page).getByRole('link', { name: label }).click();
  await expect(areaOf(other).ready(page)).toBeVisible();
  await expect(fallback(page)).toHaveCount(0);
  // Coming back tries the broken area again, and it fails again, just as readably.
  await page.goBack();
  await expect(fallback(page)).toBeVisible();
}

async function retryRecovers(page: Page, remote: RemoteName) {
  await fallback(page).getByRole('button', { name: 'Retry' }).click();
  const onLogin = new URL(page.url()).pathname === '/login';
  await expect(onLogin ? page.getByRole('heading', { level: 1, name: 'Sign In' }) : areaOf(remote).ready(page)).toBeVisible();
  await expect(fallback(page)).toHaveCount(0);
}

for (const remote of remotes) {
  test.describe(`${remote} unavailable`, () => {
    if (areaOf(remote).visitor) test.use(asVisitor);
    for (const kind of remoteFaults) {
      test(`${kind}: the area shows its fallback, the rest works, Retry recovers`, async ({ page }) => {
        const fault = await breakRemote(page, remote, kind);
        await openArea(page, remote);

        if (kind === 'entry hangs') {
          // While the entry hangs the area shows what the server rendered, inside a working frame...
          await expect(areaOf(remote).ready(page)).toBeVisible();
          if (!areaOf(remote).visitor) await expectMemberFrame(page);
          else await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
          await expect(fallback(page)).toHaveCount(0);
          // ...and when the connection finally drops, the fallback replaces it: without its code the area cannot work.
          await fault.cutConnection();
        }

        await expect(fallback(page)).toBeVisible();
        await expect(fallback(page)).toContainText('The rest of Netnet still works.');
        expect(fault.hits, 'requests that met the fault').toBeGreaterThanOrEqual(1);
        expect(mostOnOneFile(fault), 'one retry at most, never a loop').toBeLessThanOrEqual(2);
        await expectElsewhereWorks(page, remote);

        await fault.restore();
        await retryRecovers(page, remote);
      });
    }
  });
}

// The hang a member notices most: the manifest never answers. The wait is the shell's, the same for
// every remote, so one remote proves it; the others hang on their entry above.
test('remote-title manifest hangs: the area gives up within the bounded wait, then Retry recovers', async ({ page }) => {
  // The shell waits 8 s for a manifest and retries once: about 17 s before the fallback.
  const fault = await breakRemote(page, 'remote-title', 'manifest hangs');
  await openArea(page, 'remote-title');
  const started = Date.now();
  // Meanwhile the member reads what the server rendered.
  await expect(areaOf('remote-title').ready(page)).toBeVisible();
  await expect(fallback(page)).toBeVisible({ timeout: 25_000 });
  console.log(`the area gave up on a hanging manifest ${Date.now() - started} ms after it was opened`);
  expect(Date.now() - started, 'the shell waits for a slow manifest before giving up').toBeGreaterThan(7_000);
  expect(mostOnOneFile(fault), 'one polite retry, no more').toBe(2);
  await fault.restore();
  await retryRecovers(page, 'remote-title');
});

// An entry that throws as it runs (a broken release) is not fetched again — the same script would
// throw again; unlike a network failure, which the shell retries once (above). The area falls
// back, and loads once the remote is fixed.
test('remote-search entry throws: no pointless retry, the fallback, then Retry recovers', async ({ page }) => {
  const fault = await breakRemote(page, 'remote-search', 'entry throws');
  await openArea(page, 'remote-search');
  await expect(fallback(page)).toBeVisible();
  expect(fault.hits).toBe(1);
  await expectMemberFrame(page);
  await fault.restore();
  await retryRecovers(page, 'remote-search');
});
