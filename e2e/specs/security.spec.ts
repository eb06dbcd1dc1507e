import type { BrowserContext } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authEmulatorUrl, catalogueApi, catalogueUrl, exactly, originOf, remoteOrigins, siteUrl, webApps } from '../support/site';
import { test, expect, asVisitor } from '../support/memberSession';
import { createMember, signIn } from '../support/members';
import { navigateInApp, whenAppRuns } from '../support/navigate';
import { collectCspViolations } from '../support/cspViolations';
import { watchForInjectedScripts } from '../support/scriptCanary';
import {
  findSecrets,
  inlineScriptsIn,
  root,
  secretPatterns,
  servedFolders,
  textFilesIn,
} from '../support/builtFiles';

// Its trailers play on their own, as for most members: the suite's default is a member who prefers
// reduced motion (playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

// Netnet lets nothing in: strict headers and a CSP that names only the origins in use (and still
// lets every area, the YouTube player and the share popups work), no inline script, no secret in
// any served file, hostile catalogue text shown as text, and no members-only code sent to a
// visitor. (No source may write raw HTML or evaluate strings: `npm run lint` guards that.)

test.describe.configure({ mode: 'parallel' });


function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

test.describe('headers', () => {
  test('the shell’s pages carry a strict CSP and the other security headers', async ({ request }) => {
    for (const path of ['/', '/browse', '/title/604', '/no/such/page']) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      const headers = response.headers();
      expect(headers['content-type']).toMatch(/^text\/html/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin');
      expect(headers['x-frame-options']).toBe('DENY');

      const policy = headers['content-security-policy'] ?? '';
      expect(policy).not.toMatch(/unsafe-eval/);
      const csp = directives(policy);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      // Scripts only from Netnet's own origins and YouTube's player: no inline script, no eval.
      expect(csp.get('script-src')).toEqual(expect.arrayContaining(["'self'", ...remoteOrigins, 'https://www.youtube.com']));
      expect(csp.get('script-src')!.filter((source) => source.startsWith("'") && source !== "'self'")).toEqual([]);
      expect(csp.get('script-src')!.filter((source) => source.includes('*'))).toEqual([]);
      expect(csp.get('connect-src')).toEqual(expect.arrayContaining(["'self'", catalogueUrl, authEmulatorUrl, ...remoteOrigins]));
      expect(csp.get('img-src')).toEqual(expect.arrayContaining([catalogueUrl, 'https://i.ytimg.com']));
      expect(csp.get('frame-src')).toEqual(['https://www.youtube.com']);
      // Inline style is allowed for attributes only (React's style props), never for <style>.
      expect(csp.get('style-src')).not.toContain("'unsafe-inline'");
      expect(csp.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
    }
  });

  test('JSON documents and the remotes’ files are nosniff; scripts keep CORS; standalone pages get the CSP', async ({
    request,
  }) => {
    for (const path of ['/config.json', '/remotes.json']) {
      const headers = (await request.get(path)).headers();
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['content-type'], path).toMatch(/^application\/json/);
    }
    for (const origin of remoteOrigins) {
      for (const file of ['/remoteEntry.js', '/mf-manifest.json']) {
        const headers = (await request.get(`${origin}${file}`)).headers();
        expect(headers['x-content-type-options'], `${origin}${file}`).toBe('nosniff');
        expect(headers['access-control-allow-origin'], `${origin}${file}`).toBe('*');
        expect(headers['content-security-policy'], 'CSP is for documents').toBeUndefined();
      }
      const page = (await request.get(`${origin}/`)).headers();
      expect(page['content-security-policy'], `${origin}/`).toMatch(/frame-ancestors 'none'/);
      expect(page['x-frame-options']).toBe('DENY');
    }
  });

  test('the policy follows the site table: a remote moved to a CDN and a real Firebase project', async () => {
    const policy = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { default: site } = await import('@netnet/site'); const m = await import('./shell/server/securityHeaders.ts'); process.stdout.write(m.contentSecurityPolicy(site.readSite(process.env)));",
      ],
      {
        cwd: root,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          NETNET_REMOTE_TITLE_URL: 'https://cdn.example.com/title/1.4.0',
          NETNET_CATALOGUE_URL: 'https://catalogue.example.com',
          FIREBASE_API_KEY: 'test-key',
          FIREBASE_PROJECT_ID: 'netnet-test',
        },
      },
    );
    const csp = directives(policy);
    expect(csp.get('script-src')).toContain('https://cdn.example.com');
    expect(csp.get('script-src')).not.toContain(originOf('remote-title'));
    expect(csp.get('connect-src')).toEqual(
      expect.arrayContaining([
        'https://catalogue.example.com',
        'https://identitytoolkit.googleapis.com',
        'https://securetoken.googleapis.com',
      ]),
    );
    expect(csp.get('connect-src')).not.toContain(authEmulatorUrl);
    expect(csp.get('connect-src')).not.toContain(catalogueUrl);
  });
});

test.describe('under the CSP', () => {
  let violations: string[];
  test.beforeEach(async ({ context }) => {
    violations = await collectCspViolations(context);
  });

  test.describe('a visitor who signs up and browses', () => {
    test.use(asVisitor);

    test('browsing every area reports no CSP violation, and the policy really blocks inline script and eval', async ({
      page,
    }) => {
      // The landing page, then signing in through the form: Firebase works under the CSP too.
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();
      await signIn(page, await createMember());
      const seriesId = await firstSeriesId();
      const main = page.getByRole('main');
      for (const [path, ready] of [
        ['/browse', () => page.getByRole('region', { name: 'Comedy movies', exact: true }).getByRole('img').first()],
        ['/movies', () => page.getByRole('region', { name: 'Featured movie' }).getByRole('heading')],
        ['/series', () => page.getByRole('region', { name: 'Featured series' }).getByRole('heading')],
        ['/coming-soon', () => page.getByRole('list', { name: 'Upcoming movies' }).getByRole('listitem').first()],
        ['/downloads', () => main.getByRole('link', { name: 'Browse titles' })],
        ['/search?q=comedy', () => main.getByRole('list').getByRole('img').first()],
        [`/tv/${seriesId}`, () => main.getByRole('region', { name: 'More like this' }).getByRole('img').first()],
        ['/title/604', () => main.getByRole('region', { name: 'More like this' }).getByRole('img').first()],
      ] as const) {
        // One document, as a member moves around: every area's code, styles, images and media load under its CSP.
        await navigateInApp(page, path);
        await expect(ready(), path).toBeVisible();
      }
      // The title page's own clip plays from the catalogue; My list writes; the share overlay opens.
      await expect.poll(() => page.locator('video').first().evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
      await main.getByRole('button', { name: 'My list' }).click();
      await main.getByRole('button', { name: 'Share' }).click();
      await expect(page.getByRole('dialog', { name: 'Share to ...' })).toBeVisible();
      await page.keyboard.press('Escape');
      await navigateInApp(page, '/my-list');
      await expect(page.getByRole('list', { name: 'Saved titles' }).getByRole('img')).toBeVisible();
      expect(violations, 'CSP violations while browsing').toEqual([]);

      // The same listener does hear the policy at work: an inline script is refused, and so is eval
      // in a script the policy does allow (a file from Netnet's own origin).
      await page.route('**/__csp-probe.js', (route) =>
        route.fulfill({
          contentType: 'text/javascript',
          body: "window.__evalRan = 'no'; try { eval('1'); window.__evalRan = 'yes'; } catch (e) {}",
        }),
      );
      const outcome = await page.evaluate(async () => {
        const inline = document.createElement('script');
        inline.textContent = 'window.__inlineRan = true';
        document.head.append(inline);
        const probe = document.createElement('script');
        probe.src = '/__csp-probe.js';
        await new Promise((resolve) => {
          probe.onload = resolve;
          probe.onerror = resolve;
          document.head.append(probe);
        });
        const w = window as unknown as { __inlineRan?: boolean; __evalRan?: string };
        return { inlineRan: Boolean(w.__inlineRan), evalRan: w.__evalRan };
      });
      expect(outcome).toEqual({ inlineRan: false, evalRan: 'no' });
      await expect.poll(() => violations.filter((v) => /script-src/.test(v)).length).toBeGreaterThanOrEqual(2);
    });
  });

  test('the YouTube player and the share popups work under the CSP', async ({ page, context }) => {
    await playYouTubeOffline(context);
    // The trailer the test supplies is the browser's answer: the title is opened inside the app
    // (a page the server rendered comes with the server's answers, docs/architecture.md#server-rendering).
    await page.goto('/downloads');
    await whenAppRuns(page);
    await navigateInApp(page, '/title/604');
    const trailer = page.getByRole('region', { name: /trailer$/ });
    const player = trailer.locator('iframe[src^="https://www.youtube.com/embed/dQw4w9WgXcQ"]');
    await expect(player).toBeAttached();
    await expect(player.contentFrame().getByText('YouTube player')).toBeAttached();
    await expect(trailer.getByRole('button', { name: 'Pause trailer' })).toBeAttached();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __thumbnailLoaded?: boolean }).__thumbnailLoaded)).toBe(true);

    await context.route(/^https:\/\/web\.whatsapp\.com\//, (route) => route.fulfill({ contentType: 'text/html', body: 'shared' }));
    await page.getByRole('button', { name: 'Share' }).click();
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('dialog', { name: 'Share to ...' }).getByRole('button', { name: 'WhatsApp' }).click();
    const popup = await popupOpened;
    await expect(popup.getByText('shared')).toBeVisible();
    await popup.close();
    expect(violations).toEqual([]);
  });
});

test.describe('hostile catalogue text', () => {
  // The app's own escaping is under test, so the CSP's safety net is off.
  test.use({ bypassCSP: true });

  test('is shown as text everywhere, and share links encode it', async ({ page, context }) => {
    const scripts = await watchForInjectedScripts(context);
    const hostile = `<img src=x onerror=__netnetCanary()>"&'<script>__netnetCanary()</script> #?%`;
    await context.route(new RegExp(`^${exactly(catalogueApi)}/movie/604\\?`), async (route) => {
      const real = (await (await route.fetch()).json()) as Record<string, unknown>;
      await route.fulfill({
        json: { ...real, title: hostile, overview: `${hostile} overview`, genres: [{ id: 18, name: hostile }] },
        headers: { 'Access-Control-Allow-Origin': '*' },
      });
    });
    await context.route(new RegExp(`^${exactly(catalogueApi)}/movie/604/credits`), (route) =>
      route.fulfill({
        json: { id: 604, cast: [{ id: 1, name: hostile }], crew: [{ id: 2, name: hostile, job: 'Director' }] },
        headers: { 'Access-Control-Allow-Origin': '*' },
      }),
    );
    // The hostile answers are the browser's: the title is opened inside the app (a page the server
    // rendered comes with the server's answers, docs/architecture.md#server-rendering).
    const hostileAddress = `/title/604?from=${encodeURIComponent('"><script>__netnetCanary()</script>')}`;
    await page.goto('/downloads');
    await whenAppRuns(page);
    await navigateInApp(page, hostileAddress);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toHaveText(hostile);
    await expect(main.getByText(`${hostile} overview`)).toBeVisible();
    await expect(main.locator('p', { hasText: 'Cast:' })).toContainText(hostile);
    await expect(page.locator('img[src="x"], main script, main iframe')).toHaveCount(0);

    const shared = page.url();
    const networks = [
      ['WhatsApp', 'https://web.whatsapp.com/send', { text: `Seen "${hostile}" on Netnet yet? ${shared}` }],
      ['Telegram', 'https://t.me/share/url', { url: shared, text: `Seen "${hostile}" on Netnet yet?` }],
      ['Line', 'https://social-plugins.line.me/lineit/share', { url: shared, text: `Seen "${hostile}" on Netnet yet?` }],
      ['LinkedIn', 'https://www.linkedin.com/shareArticle', { mini: 'true', url: shared, title: `Seen "${hostile}" on Netnet yet?` }],
      ['Facebook', 'https://www.facebook.com/sharer/sharer.php', { u: shared, quote: `Seen "${hostile}" on Netnet yet?` }],
    ] as const;
    await context.route(/^https:\/\/(web\.whatsapp\.com|t\.me|social-plugins\.line\.me|www\.linkedin\.com|www\.facebook\.com)\//, (route) =>
      route.fulfill({ contentType: 'text/html', body: 'shared' }),
    );
    for (const [network, endpoint, params] of networks) {
      await main.getByRole('button', { name: 'Share' }).click();
      const popupOpened = page.waitForEvent('popup');
      await page.getByRole('dialog', { name: 'Share to ...' }).getByRole('button', { name: network }).click();
      const popup = await popupOpened;
      const url = new URL(popup.url());
      expect(url.origin + url.pathname, network).toBe(endpoint);
      expect(Object.fromEntries(url.searchParams), network).toEqual(params);
      await popup.close();
    }
    // The same address rendered by the server: what the request carries is escaped there too.
    await page.goto(hostileAddress);
    await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
    await whenAppRuns(page);
    expect(scripts.fired).toBe(0);
    expect(scripts.dialogs).toEqual([]);
  });
});

test.describe('visitors', () => {
  test.use(asVisitor);

  test('members-only screens never load for a visitor, even by deep link', async ({ page }) => {
    const memberOnlyCode: string[] = [];
    page.on('request', (request) => {
      const { origin } = new URL(request.url());
      if ([originOf('remote-browse'), originOf('remote-title'), originOf('remote-search')].includes(origin as never)) {
        memberOnlyCode.push(request.url());
      }
    });
    for (const path of [
      '/browse',
      '/movies',
      '/series',
      '/my-list',
      '/coming-soon',
      '/downloads',
      '/search?q=comedy',
      '/title/604?play=1',
      '/tv/1',
    ]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(`${siteUrl}/`);
      await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    }
    expect(memberOnlyCode, 'requests for members-only remotes').toEqual([]);
  });
});

test.describe('what is shipped', () => {
  test('the built pages have no inline script or inline event handler', () => {
    for (const app of webApps) {
      const html = readFileSync(join(root, app, 'dist', 'index.html'), 'utf8');
      expect(html, app).toMatch(/<script\b[^>]*\bsrc=/);
      expect(inlineScriptsIn(html), app).toEqual([]);
    }
    // The check itself catches both kinds.
    expect(inlineScriptsIn('<script>alert(1)</script><img src=x onerror="alert(1)">')).toHaveLength(2);
  });

  test('no key or token in any file served to browsers', () => {
    const files = textFilesIn(servedFolders());
    expect(files.length).toBeGreaterThan(20);
    expect(findSecrets(files, secretPatterns())).toEqual([]);

    // The scan does find what it looks for.
    const planted = mkdtempSync(join(tmpdir(), 'netnet-secrets-'));
    writeFileSync(join(planted, 'chunk.js'), `fetch("https://api.themoviedb.org/3/movie/1?api_key=${'0123456789abcdef'.repeat(2)}");var k="AIza${'x'.repeat(35)}";`);
    writeFileSync(join(planted, 'env.js'), 'var key="tmdb-from-the-environment";');
    const found = findSecrets(textFilesIn([planted]), secretPatterns({ TMDB_API_KEY: 'tmdb-from-the-environment' }));
    expect(found).toHaveLength(3);
  });
});

async function firstSeriesId(): Promise<number> {
  const response = await fetch(`${catalogueApi}/tv/popular`);
  const body = (await response.json()) as { results: { id: number }[] };
  return body.results[0]!.id;
}

/**
 * With no internet, YouTube answers from here: a trailer that names a YouTube video, an IFrame API
 * that builds YouTube's iframe and loads a thumbnail from i.ytimg.com, the way the real one does.
 * What is under test is that the page's CSP lets all three in.
 */
async function playYouTubeOffline(context: BrowserContext) {
  await context.route(new RegExp(`^${exactly(catalogueApi)}/movie/604/videos`), (route) =>
    route.fulfill({
      json: { id: 604, results: [{ id: 'y', key: 'dQw4w9WgXcQ', name: 'Trailer', site: 'YouTube', type: 'Trailer' }] },
      headers: { 'Access-Control-Allow-Origin': '*' },
    }),
  );
  await context.route('https://www.youtube.com/iframe_api', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `
        window.YT = {
          PlayerState: { ENDED: 0, PLAYING: 1, PAUSED: 2 },
          Player: function (element, options) {
            var frame = document.createElement('iframe');
            frame.src = 'https://www.youtube.com/embed/' + options.videoId + '?enablejsapi=1';
            element.replaceWith(frame);
            var thumbnail = new Image();
            thumbnail.onload = function () { window.__thumbnailLoaded = true; };
            thumbnail.src = 'https://i.ytimg.com/vi/' + options.videoId + '/hqdefault.jpg';
            var player = { playVideo() {}, pauseVideo() {}, seekTo() {}, mute() {}, unMute() {}, destroy() {} };
            setTimeout(function () {
              options.events.onReady({ target: player, data: 0 });
              options.events.onStateChange({ target: player, data: 1 });
            }, 0);
            return player;
          },
        };
        window.onYouTubeIframeAPIReady();
      `,
    }),
  );
  await context.route(/^https:\/\/www\.youtube\.com\/embed\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>YouTube</title><p>YouTube player</p>' }),
  );
  await context.route(/^https:\/\/i\.ytimg\.com\//, (route) =>
    route.fulfill({
      contentType: 'image/gif',
      body: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
    }),
  );
}
