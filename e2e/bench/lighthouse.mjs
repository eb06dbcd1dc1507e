// Lighthouse 12 (performance and accessibility, default mobile profile with simulated throttling)
// on / as a visitor and /browse as a member, in one Chromium started by chrome-launcher. The
// member signs in through the form in that same profile first (Playwright over CDP); the /browse
// run then keeps storage (the Firebase session is in IndexedDB) but starts from an empty HTTP
// cache, cleared by hand since Lighthouse only clears it together with storage.
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { signIn } from './member.mjs';
import { SITE } from './site.mjs';

async function audit(url, port, flags = {}) {
  try {
    const result = await lighthouse(url, { port, logLevel: 'error', output: 'json', onlyCategories: ['performance', 'accessibility'], ...flags });
    const { lhr } = result;
    if (lhr.runtimeError) return { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` };
    const score = (id) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100));
    const ms = (id) => lhr.audits[id]?.numericValue ?? null;
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      finalUrl: lhr.finalDisplayedUrl,
      lcpMs: ms('largest-contentful-paint'),
      fcpMs: ms('first-contentful-paint'),
      tbtMs: ms('total-blocking-time'),
      cls: ms('cumulative-layout-shift'),
      failedAccessibilityAudits: Object.values(lhr.categories.accessibility?.auditRefs ?? [])
        .map((ref) => lhr.audits[ref.id])
        .filter((a) => a && a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id),
      warnings: lhr.runWarnings ?? [],
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

async function signInOverCdp(port, member) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    await signIn(page, member);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    // Disconnects; the browser belongs to chrome-launcher.
    await browser.close();
  }
}

export async function runLighthouse({ member, chromeFlags, chromePath }) {
  let chrome;
  try {
    chrome = await chromeLauncher.launch({ chromePath, chromeFlags: [...chromeFlags, '--headless=new'], logLevel: 'silent' });
  } catch (error) {
    const reason = `Chromium did not start for Lighthouse: ${error instanceof Error ? error.message : error}`;
    return { '/': { error: reason }, '/browse': { error: reason } };
  }
  try {
    const results = { '/': await audit(`${SITE}/`, chrome.port) };
    try {
      await signInOverCdp(chrome.port, member);
      const browse = await audit(`${SITE}/browse`, chrome.port, { disableStorageReset: true });
      // A guard that sent the run elsewhere would score another page.
      results['/browse'] = browse.finalUrl && !browse.finalUrl.endsWith('/browse') ? { ...browse, error: `ended on ${browse.finalUrl}, not /browse` } : browse;
    } catch (error) {
      results['/browse'] = { error: `signing in for /browse failed: ${error instanceof Error ? error.message : error}` };
    }
    return results;
  } finally {
    chrome.kill();
  }
}
