import { test, expect } from '../support/memberSession';
import { navigateInApp, whenAppRuns } from '../support/navigate';

// A member who asks for a page or a title Netnet does not have lands on /browse and is told why
// (docs/product.md#guards-and-redirects): from a link from outside (the server's render) and from
// one inside the running app, at a phone's, a tablet's, a laptop's and a desktop's width.

const NO_PAGE = 'We couldn’t find that page. Here’s what’s on instead.';
const NO_TITLE = 'We couldn’t find that title. Here’s what’s on instead.';
const lost: [path: string, notice: string][] = [
  ['/nosuchpage', NO_PAGE],
  ['/no/such/place', NO_PAGE],
  ['/title/abc', NO_TITLE],
  ['/tv/12abc', NO_TITLE],
  // A well-formed id the catalogue does not have: the notice the others are worded after.
  ['/title/9999999999', NO_TITLE],
];

const sizes = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
];

for (const size of sizes) {
  test.describe(`at ${size.width}px`, () => {
    test.use({ viewport: size });

    test('a missing page or title leads to /browse with a notice on screen saying so', async ({ page }) => {
      const home = page.getByRole('region', { name: 'Comedy movies', exact: true }).getByRole('link').first();
      for (const [path, notice] of lost) {
        await page.goto(path);
        await expect(page, path).toHaveURL(/\/browse$/);
        await expect(page.getByRole('status').filter({ hasText: notice }), path).toBeInViewport({ ratio: 1 });
      }
      await expect(home).toBeVisible();
      await whenAppRuns(page);
      for (const [path, notice] of lost.slice(0, 3)) {
        // Each notice in turn: the last one has gone before the next is asked for.
        await expect(page.getByRole('status').filter({ hasText: /Here’s what’s on instead/ })).toHaveCount(0, { timeout: 15_000 });
        await navigateInApp(page, path);
        await expect(page, path).toHaveURL(/\/browse$/);
        await expect(page.getByRole('status').filter({ hasText: notice }), path).toBeInViewport({ ratio: 1 });
      }
    });
  });
}
