import AxeBuilder from '@axe-core/playwright';
import type { Route } from '@playwright/test';
import { test, expect } from '../support/test';
import { newMemberDetails } from '../support/members';
import { originOf } from '../support/site';

// The first sign-up after the site started met /browse's code slow to come: the loading state it
// showed must be on screen below the header, with the page's level-one heading, and pass axe —
// for a visitor who had scrolled down to the form, as one does on a phone.

const sizes = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
];

for (const size of sizes) {
  test(`at ${size.width}px a new member waiting for /browse sees the loading page below the header, headed`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Get Started' })).toBeEnabled();

    // remote-browse is slow today: its files wait until the test has looked at the loading page.
    const held: Route[] = [];
    let holding = true;
    const browseOrigin = originOf('remote-browse');
    await page.route(
      (url) => url.origin === browseOrigin,
      (route) => (holding ? void held.push(route) : route.continue()),
    );

    const member = newMemberDetails();
    await page.getByLabel('Email address', { exact: true }).fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.getByRole('button', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/browse$/);

    const spinner = page.getByRole('status', { name: 'Loading this part of Netnet' });
    await expect(spinner).toBeInViewport({ ratio: 1 });
    await expect.poll(() => held.length, { message: 'remote-browse asked for' }).toBeGreaterThan(0);
    const header = (await page.getByRole('banner').boundingBox())!;
    expect((await spinner.boundingBox())!.y, 'below the header').toBeGreaterThanOrEqual(header.y + header.height);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Loading this part of Netnet');
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .setLegacyMode(true)
      .analyze();
    expect(violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

    // The code arrives: the member's home replaces the loading page.
    holding = false;
    await Promise.all(held.map((route) => route.continue()));
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeAttached();
    await expect(page.getByRole('region', { name: 'Comedy movies', exact: true }).getByRole('link').first()).toBeVisible();
    await expect(spinner).toHaveCount(0);
  });
}
