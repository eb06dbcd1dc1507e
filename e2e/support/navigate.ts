import type { Page } from '@playwright/test';

/**
 * Follows a link inside the running app, as a click on an in-app link would: the router sees the
 * new address without a page load. Long input matrices use it; real deep links use page.goto.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}
