import type { Page } from '@playwright/test';
import { test, expect } from '../../support/memberSession';
import { installTabVisibility, pageSettled, setTabHidden } from '../../support/tabVisibility';

// Its trailers play on their own, as for most members: the suite's default is a member who prefers
// reduced motion (playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

// The home trailer on a slow network while the member switches tabs: no error, never stuck —
// it plays once it can, pauses while hidden, resumes when back, and the member's own Pause wins.

const trailer = (page: Page) => page.getByRole('region', { name: 'Trailer' });
const video = (page: Page) => page.getByLabel('Netnet home trailer');
const paused = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.paused);

test('a slow trailer and a tab that comes and goes never leave it stuck', async ({ page }) => {
  // The clip is slow to come: held back until the test lets it through, so the order is certain.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const clipArrived = new Promise<void>((resolve) => (arrived = resolve));
  await page.route(/\/assets\/home-trailer\.[0-9a-f]+\.mp4$/, async (route) => {
    await released;
    await route.continue().catch(() => undefined);
    arrived();
  });
  await installTabVisibility(page);
  await page.goto('/browse');

  // While the clip is on its way the screen works: the controls answer and the rows load.
  await trailer(page).getByRole('button', { name: 'Activate sound' }).click();
  await trailer(page).getByRole('button', { name: 'Mute sound' }).click();
  await expect(trailer(page).getByRole('button', { name: 'Activate sound' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Comedy movies', exact: true }).getByRole('link').first()).toBeVisible();
  expect(await paused(page), 'nothing to play yet').toBe(true);

  // The member is in another tab when the clip finally arrives, and comes back.
  await setTabHidden(page, true);
  release();
  await clipArrived;
  await setTabHidden(page, false);

  // It plays, and the button says so.
  await expect.poll(() => paused(page), { timeout: 15_000 }).toBe(false);
  await expect(trailer(page).getByRole('button', { name: 'Pause trailer' })).toBeVisible();

  // Hidden: paused. Back: playing again.
  await setTabHidden(page, true);
  await expect.poll(() => paused(page)).toBe(true);
  await expect(trailer(page).getByRole('button', { name: 'Play trailer' })).toBeVisible();
  await setTabHidden(page, false);
  await expect.poll(() => paused(page)).toBe(false);

  // The member's own Pause survives a trip to another tab.
  await trailer(page).getByRole('button', { name: 'Pause trailer' }).click();
  await expect.poll(() => paused(page)).toBe(true);
  await setTabHidden(page, true);
  await setTabHidden(page, false);
  await pageSettled(page);
  expect(await paused(page)).toBe(true);
  await expect(trailer(page).getByRole('button', { name: 'Play trailer' })).toBeVisible();

  // And Play still works after all that.
  await trailer(page).getByRole('button', { name: 'Play trailer' }).click();
  await expect.poll(() => paused(page)).toBe(false);
});
