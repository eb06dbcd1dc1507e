import { brotliCompressSync, constants } from 'node:zlib';
import type { Locator, Page, Response } from '@playwright/test';
import { asVisitor, expect, test } from '../support/memberSession';
import budgets from '../bench/budgets.json';

// The JS budgets (docs/performance.md) in every `npm test`: the bytes of JavaScript a page has
// loaded by the time it is interactive are the same on every run of one build, so they need no
// benchmark's throttling and medians. Counted as `npm run bench:web` counts them
// (e2e/bench/measure.mjs): each page in a fresh context (cold cache), the scripts that had arrived
// when React first owned the page's main content, a body served as brotli as it came over the
// wire, any other compressed at brotli's top quality, as the build precompresses. LCP stays in the
// benchmark.
//
// A page with a budget (e2e/bench/budgets.json: today `/`) is held to it to the byte: a build's
// bytes no longer depend on the folder it was made in (scripts/webpack/stableFederationEntryId.js).
// The members' pages have none yet and are reported: one of them can also count the profile menu's
// chunk (fetched once the member's frame is idle, which may come before the page's content is React's).

type Probe = 'heading' | 'list';

interface Measured {
  bytes: number;
  files: string[];
}

declare global {
  interface Window {
    jsBudget?: { loaded: string[] };
  }
}

/**
 * In the page before its own scripts: at the first animation frame in which the probe (the
 * main content's first level-1 heading, or the first link of its first list) is on screen and
 * React's (its props are on the node), the resources that had arrived by then.
 */
function watchInteractive(probe: Probe) {
  const onScreen = (element: Element) => {
    const box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1 && element.checkVisibility({ visibilityProperty: true });
  };
  const find = () => {
    const main = document.querySelector('main');
    if (!main) return null;
    if (probe === 'heading') return [...main.querySelectorAll('h1')].find(onScreen) ?? null;
    const link = main.querySelector('ul a[href]');
    return link && onScreen(link) ? link : null;
  };
  const ownedByReact = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactProps$'));
  const watch = () => {
    const element = document.body && find();
    if (element && ownedByReact(element)) {
      window.jsBudget = { loaded: performance.getEntriesByType('resource').map((entry) => entry.name) };
      return;
    }
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}

async function brotliBytes(response: Response): Promise<number> {
  await response.finished();
  if (response.headers()['content-encoding'] === 'br') return (await response.request().sizes()).responseBodySize;
  return brotliCompressSync(await response.body(), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

/** `path` opened cold: the brotli bytes of JavaScript it had loaded once interactive, and which files. */
async function jsUntilInteractive(page: Page, path: string, probe: Probe, content: (page: Page) => Locator): Promise<Measured> {
  const scripts = new Map<string, Response>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.set(response.url(), response);
  });
  await page.addInitScript(watchInteractive, probe);
  await page.goto(path);
  const { loaded } = await (await page.waitForFunction(() => window.jsBudget ?? null)).jsonValue() as { loaded: string[] };
  // The probe is plain DOM; what the member sees confirms it found the page's content.
  await expect(content(page)).toBeVisible();
  const files = [...new Set(loaded)].filter((url) => scripts.has(url));
  const sizes = await Promise.all(files.map((url) => brotliBytes(scripts.get(url)!)));
  return { bytes: sizes.reduce((sum, size) => sum + size, 0), files: files.map((url, index) => `${sizes[index]} ${url}`) };
}

const main = (page: Page) => page.getByRole('main');
const budgetOf = (path: string): number | undefined => (budgets.jsUntilInteractiveBytes as Record<string, number>)[new URL(path, 'http://netnet.invalid').pathname];

/** Checks `path`'s figure against its budget, and reports it. */
function judge(path: string, { bytes, files }: Measured) {
  const budget = budgetOf(path);
  test.info().annotations.push({ type: 'JS until interactive', description: `${path}: ${bytes} bytes (brotli), budget ${budget ?? 'none'}` });
  console.log(`${path}: ${bytes} bytes of JS until interactive (brotli) in ${files.length} files, budget ${budget ?? 'none'}`);
  // The shell's own boot alone is tens of KB: less is a measure that missed the page's files.
  expect(bytes, files.join('\n')).toBeGreaterThan(50_000);
  if (budget !== undefined) expect(bytes, `${path} over its budget by ${bytes - budget} bytes:\n${files.join('\n')}`).toBeLessThanOrEqual(budget);
}

test.describe('a visitor', () => {
  test.use(asVisitor);

  test('/ loads no more JS until interactive than its budget', async ({ page }) => {
    judge('/', await jsUntilInteractive(page, '/', 'heading', (page) => main(page).getByRole('heading', { level: 1 })));
  });
});

test.describe('a member', () => {
  const pages: { path: string; probe: Probe; content: (page: Page) => Locator }[] = [
    { path: '/browse', probe: 'list', content: (page) => main(page).getByRole('list').first().getByRole('link').first() },
    { path: '/title/604', probe: 'heading', content: (page) => main(page).getByRole('heading', { level: 1 }) },
    { path: '/search?q=the', probe: 'list', content: (page) => main(page).getByRole('list').getByRole('link').first() },
    { path: '/my-list', probe: 'heading', content: (page) => main(page).getByRole('heading', { level: 1, name: 'My list', exact: true }) },
  ];
  for (const { path, probe, content } of pages) {
    test(`${path} has its JS until interactive measured and reported`, async ({ page }) => {
      judge(path, await jsUntilInteractive(page, path, probe, content));
    });
  }
});
