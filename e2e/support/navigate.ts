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

/**
 * Waits until the browser runs the page the server rendered (docs/architecture.md#server-rendering):
 * the shell has taken over and the area's release has loaded, so a click or an in-app link from
 * here on is the app's, not a page load. Until then a link is a plain link to the server.
 */
export async function whenAppRuns(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const remotes = (window as unknown as { 'netnet:remotes'?: Record<string, { state?: string } | undefined> })['netnet:remotes'];
    return Object.values(remotes ?? {}).some((remote) => remote?.state === 'loaded');
  });
}
