import type { Page } from '@playwright/test';

// Headless Chromium never hides its tab, so the page is told the way a browser would tell it:
// document.hidden / visibilityState change and a visibilitychange event fires.

export async function installTabVisibility(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { __setTabHidden: (hidden: boolean) => void }).__setTabHidden = (hidden) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
      document.dispatchEvent(new Event('visibilitychange'));
    };
  });
}

/** Resolves once the page has handled what it was just told: two frames, time for React to commit. */
export async function pageSettled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

export async function setTabHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((value) => (window as unknown as { __setTabHidden: (hidden: boolean) => void }).__setTabHidden(value), hidden);
}
