import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { test, expect, asVisitor } from '../support/memberSession';
import { fallback } from '../support/areas';
import { navigateInApp } from '../support/navigate';
import { scriptPayloads, watchForInjectedScripts, type ScriptWatch } from '../support/scriptCanary';
import { putRecords, readRecords, replaceWithEmptyDatabase } from '../support/netnetStore';
import { authEmulatorUrl, siteUrl } from '../support/site';

// Bad input everywhere a member or a link can put it — form fields, the search box, route and
// query parameters, and what is stored in the browser: each gets a clear message or a safe
// redirect, no script ever runs, nothing saved is lost.
//
// The CSP is bypassed here on purpose: these tests prove the app's own escaping, not the
// policy's safety net (security.spec.ts proves that one).
test.use({ bypassCSP: true });
test.describe.configure({ mode: 'parallel' });

let scripts: ScriptWatch;
test.beforeEach(async ({ context }) => {
  scripts = await watchForInjectedScripts(context);
});
test.afterEach(() => {
  expect(scripts.fired, 'an injected script ran').toBe(0);
  expect(scripts.dialogs, 'an injected script opened a dialog').toEqual([]);
});

const REQUIRED_EMAIL = 'Email is required';
const INVALID_EMAIL = 'Please enter a valid email address';
const REQUIRED_PASSWORD = 'Password is required';
const PASSWORD_LENGTH = 'Password should be between 6 and 60 characters';

/** [what is typed, the message under the field — or null when it is acceptable]. */
const emailMatrix: [string, string | null][] = [
  ['', REQUIRED_EMAIL],
  ['   ', REQUIRED_EMAIL],
  ['plainaddress', INVALID_EMAIL],
  ['a@b', INVALID_EMAIL],
  ['@example.com', INVALID_EMAIL],
  ['two@@example.com', INVALID_EMAIL],
  ['spa ce@example.com', INVALID_EMAIL],
  ['a@example.c', INVALID_EMAIL],
  [`${'x'.repeat(250)}@example.com`, INVALID_EMAIL],
  [`<img src=x onerror=__netnetCanary()>@example.com`, INVALID_EMAIL],
  ['"; DROP TABLE members; --@example.com', INVALID_EMAIL],
  ['<script>__netnetCanary()</script>@example.com', null],
  ["o'brien+tag@example.co.uk", null],
  ['ünï@exämple.com', null],
];

const passwordMatrix: [string, string | null][] = [
  ['', REQUIRED_PASSWORD],
  ['      ', REQUIRED_PASSWORD],
  ['12345', PASSWORD_LENGTH],
  ['x'.repeat(61), PASSWORD_LENGTH],
  ['😀😀😀😀😀', PASSWORD_LENGTH],
  ['😀😀😀😀😀😀', null],
  ['<img src=x onerror=__netnetCanary()>', null],
  ['x'.repeat(60), null],
];

const forms = [
  { name: 'landing sign-up', path: '/', submit: 'Get Started' },
  { name: 'login', path: '/login', submit: 'Sign In' },
] as const;

const emailField = (page: Page) => page.getByLabel('Email address', { exact: true });
const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });

async function expectFieldVerdict(field: ReturnType<typeof emailField>, message: string | null) {
  if (message) {
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(message);
  } else {
    await expect(field).toHaveAttribute('aria-invalid', 'false');
  }
}

test.describe('form fields', () => {
  test.use(asVisitor);

  for (const form of forms) {
    test(`${form.name}: every email and password in the matrix gets its message, and nothing is sent`, async ({ page }) => {
      let authCalls = 0;
      await page.route(`${authEmulatorUrl}/**`, (route) => {
        authCalls++;
        return route.continue();
      });
      await page.goto(form.path);
      // Both fields at once, row by row: once touched, each shows the verdict on its current value.
      for (let row = 0; row < Math.max(emailMatrix.length, passwordMatrix.length); row++) {
        const [email, emailMessage] = emailMatrix[row % emailMatrix.length]!;
        const [password, passwordMessage] = passwordMatrix[row % passwordMatrix.length]!;
        await emailField(page).fill(email);
        await passwordField(page).fill(password);
        await emailField(page).focus();
        await expectFieldVerdict(emailField(page), emailMessage);
        await expectFieldVerdict(passwordField(page), passwordMessage);
      }

      // An invalid form is not submitted: focus goes to the field to fix.
      await emailField(page).fill('a@b');
      await passwordField(page).fill('12345');
      await page.getByRole('button', { name: form.submit }).click();
      await expect(emailField(page)).toBeFocused();
      await expect(page).toHaveURL(new RegExp(`${form.path}$`));
      expect(authCalls, 'nothing reached the auth service').toBe(0);
    });
  }

  test('markup typed into sign-in is sent as text and answered with a clear message', async ({ page }) => {
    const email = `<script>__netnetCanary()</script>${randomUUID().slice(0, 6)}@example.com`;
    await page.goto('/login');
    await emailField(page).fill(email);
    await passwordField(page).fill('<img src=x onerror=__netnetCanary()>');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toContainText(/Incorrect email or password|can't find an account/);
    // Nothing typed is lost.
    await expect(emailField(page)).toHaveValue(email);
    await expect(passwordField(page)).toHaveValue('<img src=x onerror=__netnetCanary()>');
  });

  test('an address full of markup can still sign up, and lands safely on /browse', async ({ page }) => {
    await page.goto('/');
    await emailField(page).fill(`"<img/src=x/onerror=__netnetCanary()>${randomUUID().slice(0, 6)}"@example.com`);
    await passwordField(page).fill('<svg onload=__netnetCanary()>');
    await page.getByRole('button', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/browse$/);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Sign out of Netnet' })).toBeVisible();
  });

  test('query parameters: ?email= is prefilled as plain text, capped, and never run', async ({ page }) => {
    for (const payload of scriptPayloads) {
      await page.goto(`/login?email=${encodeURIComponent(payload)}`);
      await expect(emailField(page)).toHaveValue(payload.trim());
    }
    await page.goto(`/login?email=${'a'.repeat(10_000)}`);
    await expect(emailField(page)).toHaveValue('a'.repeat(254));
    await page.goto(`/login?email=${encodeURIComponent('\u0000a\nb\u0007@example.com')}`);
    await expect(emailField(page)).toHaveValue('ab@example.com');
    // Other pages ignore what they do not read.
    await page.goto(`/?email=${encodeURIComponent(scriptPayloads[1])}&next=${encodeURIComponent('javascript:__netnetCanary()')}`);
    await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();
    await expect(emailField(page)).toHaveValue('');
  });

  test('members-only routes with bad ids send a visitor to the landing page', async ({ page }) => {
    for (const path of ['/title/abc', '/tv/<script>__netnetCanary()</script>', '/title/-1']) {
      await page.goto(path);
      await expect(page).toHaveURL(`${siteUrl}/`);
      await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();
    }
  });
});

test.describe('route and query parameters', () => {
  const badTitlePaths = [
    '/title/abc',
    '/title/-1',
    '/title/0',
    '/title/1e99',
    '/title/0x10',
    '/title/604abc',
    `/title/${'9'.repeat(400)}`,
    '/title/%00',
    '/title/%E0%A4%A',
    '/tv/<script>__netnetCanary()</script>',
    `/tv/${encodeURIComponent('<img src=x onerror=__netnetCanary()>')}`,
    '/tv/javascript:__netnetCanary()',
    '/title/604/extra',
  ];

  test('bad title ids lead a member safely back to /browse, by deep link or in-app link', async ({ page }) => {
    const comedy = page.getByRole('region', { name: 'Comedy movies', exact: true });
    for (const path of badTitlePaths.slice(0, 3)) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/browse$/);
      await expect(comedy).toBeVisible();
    }
    for (const path of badTitlePaths.slice(3)) {
      await navigateInApp(page, path);
      await expect(page, path).toHaveURL(/\/browse$/);
      await expect(comedy).toBeVisible();
      await expect(fallback(page)).toHaveCount(0);
    }
  });

  test('junk in query strings is ignored or shown as text', async ({ page }) => {
    await page.goto(`/browse?${encodeURIComponent(scriptPayloads[1])}=1&x=${encodeURIComponent(scriptPayloads[0])}`);
    await expect(page.getByRole('region', { name: 'Comedy movies', exact: true }).getByRole('link').first()).toBeVisible();

    await page.goto(`/title/604?play=${encodeURIComponent(scriptPayloads[2])}`);
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();

    for (const payload of scriptPayloads) {
      await navigateInApp(page, `/search?q=${encodeURIComponent(payload)}`);
      await expect(page.getByRole('main').getByRole('heading', { level: 2, name: `${payload} results:`, exact: true })).toBeVisible();
    }
    await expect(page.locator('main img[src="x"], main script, main iframe, main svg[onload]')).toHaveCount(0);
  });
});

test.describe('the search box', () => {
  /** [typed, the query searched and shown — '' when there is nothing to search]. */
  const searchMatrix: [string, string][] = [
    ...scriptPayloads.map((payload): [string, string] => [payload, payload]),
    ['%', '%'],
    ['%25%00%', '%25%00%'],
    ['../../etc/passwd', '../../etc/passwd'],
    ['a&b=c#d?e', 'a&b=c#d?e'],
    ["' OR 1=1 --", "' OR 1=1 --"],
    ['🎬🍿', '🎬🍿'],
    ['مرحبا بالعالم', 'مرحبا بالعالم'],
    ['bell\u0007\ttab', 'bell tab'],
    ['\u3000\u00a0 ', ''],
    ['\u200b\u200b', ''],
    ['co\u200bmedy', 'comedy'],
    ['\u202egro.live', 'gro.live'],
  ];

  test('every query in the matrix is searched as text and settles on results, Nada or an error', async ({ page }) => {
    await page.goto('/search');
    const box = page.getByRole('search').getByRole('searchbox', { name: 'Search titles' });
    for (const [typed, query] of searchMatrix) {
      await box.fill(typed);
      await box.press('Enter');
      if (!query) {
        await expect(page.getByText('Type the name of a movie, a series or a genre.')).toBeVisible();
        continue;
      }
      await expect(page).toHaveURL((url) => url.searchParams.get('q') === query);
      const heading = page.getByRole('main').getByRole('heading', { level: 2, name: `${query} results:`, exact: true });
      await expect(heading, typed).toBeVisible();
      // Never stuck on Loading...: it settles one way or another.
      await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
      await expect(page.getByText('Nada', { exact: true }).or(page.getByRole('main').getByRole('list')).or(page.getByRole('main').getByRole('alert'))).toBeVisible();
    }
    await expect(page.locator('main img[src="x"], main script, main iframe, main svg[onload]')).toHaveCount(0);
  });
});

test.describe('stored records', () => {
  test('corrupted and hostile records in My list are skipped or shown as text; the real ones survive', async ({ page }) => {
    // A real saved title and a real rating first, through the page.
    await page.goto('/title/604');
    const myList = page.getByRole('main').getByRole('button', { name: 'My list' });
    await expect(myList).toHaveAttribute('aria-disabled', 'false');
    await myList.click();
    await expect(myList).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('main').getByRole('button', { name: 'Rate' }).click();
    await expect(page.getByRole('main').getByRole('button', { name: 'Rate' })).toHaveAttribute('aria-pressed', 'true');
    const [saved] = await readRecords(page, 'titles');
    const uid = String(saved!.uid);

    const hostileName = `<img src=x onerror=__netnetCanary()> ${'long '.repeat(2_000)}`;
    const junk = [
      { uid, type: 'movie', id: 77, name: hostileName, poster: 'javascript:__netnetCanary()', addedAt: 1 },
      { uid, type: 'film', id: 5, name: 'Bad type', poster: null, addedAt: 2 },
      { uid, type: 'tv', id: 6, name: 42, poster: null, addedAt: 3 },
      { uid, type: 'movie', id: -1, name: 'Negative', poster: null, addedAt: 4 },
      { uid, type: 'movie', id: 1e300, name: 'Huge', poster: null, addedAt: 5 },
      { uid, type: 'movie', id: 'abc', name: 'Text id', poster: null, addedAt: 6 },
      { uid, type: 'tv', id: 8, name: 'No date', poster: null },
      { uid, type: 'tv', id: 9, name: 'Bad poster', poster: { src: 'x' }, addedAt: 7 },
      { uid: 'someone-else', type: 'movie', id: 10, name: 'Not yours', poster: null, addedAt: 8 },
    ];
    await putRecords(page, 'titles', junk);
    await putRecords(page, 'rated', [
      { uid, type: 'movie', id: 'x' },
      { uid, type: 'tv', id: 0 },
    ]);

    await page.goto('/my-list');
    const list = page.getByRole('list', { name: 'Saved titles' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await expect(list.getByRole('link', { name: hostileName })).toHaveAttribute('href', '/title/77');
    await expect(list.locator('a[href="/title/604"]')).toBeVisible();
    await expect(page.getByText(/Bad type|Negative|Huge|Text id|No date|Bad poster|Not yours/)).toHaveCount(0);
    await expect(page.locator('main img[src="x"], main [src^="javascript:"], main [href^="javascript:"]')).toHaveCount(0);

    // The real records are intact and still work from the title page.
    await page.goto('/title/604');
    await expect(page.getByRole('main').getByRole('button', { name: 'My list' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('main').getByRole('button', { name: 'Rate' })).toHaveAttribute('aria-pressed', 'true');
    expect((await readRecords(page, 'titles')).length, 'nothing was deleted behind the member’s back').toBe(1 + junk.length);
  });

  test('a database left without its stores: My list and Rate explain, the rest works', async ({ page }) => {
    await page.goto('/browse');
    await expect(page.getByRole('region', { name: 'Comedy movies', exact: true })).toBeVisible();
    await replaceWithEmptyDatabase(page);

    await page.goto('/my-list');
    await expect(page.getByText(/My list can’t be read on this browser/)).toBeVisible();
    await page.goto('/title/604');
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('main').getByRole('button', { name: 'My list' })).toHaveAccessibleDescription(
      'My list can’t be saved on this browser.',
    );
    await expect(page.getByRole('main').getByRole('button', { name: 'Rate' })).toHaveAccessibleDescription(
      'Ratings can’t be saved on this browser.',
    );
  });
});
