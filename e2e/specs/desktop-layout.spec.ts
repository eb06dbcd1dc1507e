import type { Page } from '@playwright/test';
import { test, expect } from '../support/memberSession';
import { whenAppRuns } from '../support/navigate';

// The desktop layout (docs/product.md#frame-headers-and-navigation): sections and Search in the
// header, the bottom bar on phones only, and nothing focusable ever under a fixed bar.

/**
 * Walks the page with Tab, once round (out to the browser and back to the top) or `tabs` presses;
 * for each stop, its name (its label, else its text or its image's) and whether something else is
 * drawn over it: its centre must show the focused element itself, inside the screen (a bar fixed
 * or stuck to the screen over it is named). A press that leaves focus on the page itself is no stop.
 */
async function tabWalk(page: Page, tabs: number): Promise<{ stops: string[]; hidden: string[]; round: boolean }> {
  const stops: string[] = [];
  const hidden: string[] = [];
  for (let i = 0; i < tabs; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const focused = document.activeElement;
      if (!focused || focused === document.body) return null;
      // Once round the page, every stop has been seen.
      if (focused.hasAttribute('data-tab-seen')) return 'round';
      focused.setAttribute('data-tab-seen', '');
      const name = (focused.getAttribute('aria-label') ?? (focused.textContent?.trim() || focused.querySelector('img')?.alt || '')).slice(0, 30);
      const box = focused.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const onTop = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? document.elementFromPoint(x, y) : null;
      if (onTop && (focused === onTop || focused.contains(onTop))) return { name, under: null };
      let cover: Element | null = onTop;
      while (cover && !['fixed', 'sticky'].includes(getComputedStyle(cover).position)) cover = cover.parentElement;
      return { name, under: `${focused.tagName} "${name}" at y ${Math.round(box.top)} under ${cover?.tagName ?? onTop?.tagName ?? 'the edge of the screen'}` };
    });
    if (stop === 'round') return { stops, hidden, round: true };
    if (!stop) continue;
    stops.push(stop.name);
    if (stop.under) hidden.push(stop.under);
  }
  return { stops, hidden, round: false };
}

test.describe('at 1366×768', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('the sections and Search are in the header; there is no bottom bar', async ({ page }) => {
    await page.goto('/title/604');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Search' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Home', exact: true })).toBeVisible();
    await header.getByRole('link', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/search$/);
    const viewportHeight = 768;
    const lowest = await page.evaluate(() =>
      Math.max(0, ...[...document.querySelectorAll<HTMLElement>('nav')].filter((nav) => getComputedStyle(nav).position === 'fixed' && nav.offsetParent !== null).map((nav) => nav.getBoundingClientRect().bottom)),
    );
    expect(lowest, 'a navigation fixed to the bottom of the screen').toBeLessThan(viewportHeight - 100);
  });

  test('on a title page no Tab stop is under a fixed bar, Share’s focus return included', async ({ page }) => {
    await page.goto('/title/604');
    await whenAppRuns(page);
    await expect(page.getByRole('group', { name: 'Title actions' })).toBeVisible();
    const walk = await tabWalk(page, 40);
    // Focus that never leaves the page itself would pass every stop it did not make.
    expect(walk.stops).toEqual(expect.arrayContaining(['Skip to content', 'Home', 'Search', 'Profile menu', 'Play', 'My list', 'Rate', 'Share']));
    expect(walk.round, `once round the page in 40 presses: ${walk.stops.join(', ')}`).toBe(true);
    expect(walk.hidden).toEqual([]);

    const share = page.getByRole('button', { name: 'Share' });
    await share.focus();
    await share.press('Enter');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(share).toBeFocused();
    const box = (await share.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(768);
    expect(box.y).toBeGreaterThanOrEqual(64 - 1);
  });

  test('/browse: the rows scroll with arrows a mouse can press', async ({ page }) => {
    await page.goto('/browse');
    await whenAppRuns(page);
    const row = page.getByRole('region', { name: 'Comedy movies', exact: true });
    const list = row.getByRole('list');
    await expect(row.getByRole('link').nth(15)).toBeAttached();
    await row.hover();
    const forward = row.getByRole('button', { name: 'More Comedy movies' });
    await expect(forward).toBeVisible();
    const before = await list.evaluate((el) => el.scrollLeft);
    await forward.click();
    await expect.poll(() => list.evaluate((el) => el.scrollLeft)).toBeGreaterThan(before + 300);
    await expect(row.getByRole('button', { name: 'Previous Comedy movies' })).toBeVisible();
  });
});

test.describe('at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the bottom bar holds the sections, and no Tab stop is under it', async ({ page }) => {
    await page.goto('/title/604');
    await whenAppRuns(page);
    const bar = page.getByRole('navigation', { name: 'Main' });
    await expect(bar.getByRole('link', { name: 'Search' })).toBeVisible();
    const box = (await bar.boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(800);
    await expect(page.getByRole('group', { name: 'Title actions' })).toBeVisible();
    const walk = await tabWalk(page, 40);
    expect(walk.stops).toEqual(expect.arrayContaining(['Skip to content', 'Profile menu', 'Play', 'My list', 'Share', 'Home', 'Search', 'Downloads']));
    expect(walk.round, `once round the page in 40 presses: ${walk.stops.join(', ')}`).toBe(true);
    expect(walk.hidden).toEqual([]);
  });
});

// Every width a member meets: a phone, a tablet upright (the desktop breakpoint itself), a small
// laptop and a desktop.
const widths = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
];

for (const size of widths) {
  test.describe(`at ${size.width}px`, () => {
    test.use({ viewport: size });

    test('every header link is on one line, and the header holds them all', async ({ page }) => {
      for (const path of ['/browse', '/title/604']) {
        await page.goto(path);
        const header = page.getByRole('banner');
        await expect(header.getByRole('button', { name: 'Profile menu' })).toBeVisible();
        const links = await header.getByRole('link').evaluateAll((elements) =>
          elements
            .filter((link) => link.checkVisibility())
            .map((link) => {
              const lineHeight = parseFloat(getComputedStyle(link).lineHeight) || parseFloat(getComputedStyle(link).fontSize) * 1.4;
              const text = [...link.querySelectorAll('span')].find((span) => span.textContent) ?? link;
              return { name: link.textContent?.trim() || link.getAttribute('aria-label'), height: text.getBoundingClientRect().height, lineHeight };
            }),
        );
        expect(links.map((link) => link.name), path).toEqual(expect.arrayContaining(path === '/browse' ? ['Series', 'Movies', 'My list'] : []));
        if (size.width >= 768) expect(links.map((link) => link.name), path).toEqual(expect.arrayContaining(['Home', 'Coming soon', 'Downloads']));
        for (const link of links) expect(link.height, `${path}: "${link.name}" on one line`).toBeLessThan(link.lineHeight * 1.5);
        const overflow = await header.evaluate((element) => element.scrollWidth - element.clientWidth);
        expect(overflow, `${path}: nothing runs past the header`).toBeLessThanOrEqual(0);
      }
    });

    test('on the home billboard Tab reaches Play and More info before the trailer’s controls', async ({ page }) => {
      await page.goto('/browse');
      await whenAppRuns(page);
      const billboard = page.getByRole('region', { name: 'Featured title' });
      await expect(billboard.getByRole('link', { name: 'Play' })).toBeVisible();
      const order: string[] = [];
      for (let press = 0; press < 30 && order.length < 4; press++) {
        await page.keyboard.press('Tab');
        const name = await page.evaluate(() => {
          const focused = document.activeElement;
          if (!focused?.closest('[aria-label="Featured title"]')) return null;
          return focused.getAttribute('aria-label') ?? focused.textContent?.trim() ?? '';
        });
        if (name && !name.startsWith('My list')) order.push(name);
      }
      expect(order).toEqual(['Play', 'More info', 'Play trailer', 'Activate sound']);
    });
  });
}
