import { test, expect, asVisitor } from '../support/memberSession';
import { allReady, clusterState, underLoad } from '../support/cluster';
import { newMemberDetails } from '../support/members';
import { originOf, siteUrl } from '../support/site';

// The whole site through its front door (docs/deploy.md): nginx in front of two shell instances
// started by `npm run start:cluster` (e2e/cluster.config.ts). Visitors and members get the same
// pages as through `npm start`; nginx serves the files; an instance killed or restarted costs no
// member a request.

test.describe('visitors', () => {
  test.use(asVisitor);

  test("a visitor's landing page comes rendered by an instance through nginx, hints on the 200, and the visitor signs up", async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    const headers = await response!.allHeaders();
    expect(headers.server).toBe('nginx');
    expect(headers.link, 'Early Hints travel as Link headers on the page').toMatch(/rel=preload/);
    const html = await response!.text();
    expect(html).toContain('id="netnet-state"');
    await expect(page.getByRole('heading', { name: 'Ready to watch? Enter your email to create or restart your membership.' })).toBeVisible();

    const member = newMemberDetails();
    await page.getByLabel('Email address', { exact: true }).fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  });

  test('nginx serves the files: hashed ones immutable and precompressed, entry documents no-cache, remotes with CORS', async ({ request }) => {
    const html = await (await fetch(`${siteUrl}/`)).text();
    const script = /<script[^>]+src="?\/(main\.[0-9a-f]{10}\.js)/.exec(html)?.[1];
    expect(script, 'the page names the shell entry script').toBeTruthy();
    const br = await fetch(`${siteUrl}/${script}`, { headers: { 'Accept-Encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('server')).toBe('nginx');
    const gz = await fetch(`${siteUrl}/${script}`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');

    const remote = originOf('remote-browse');
    const manifest = await request.get(`${remote}/mf-manifest.json`);
    expect(manifest.headers()['cache-control']).toBe('no-cache');
    expect(manifest.headers()['access-control-allow-origin']).toBe('*');
    expect(manifest.headers().server).toBe('nginx');
    const entry = await request.get(`${remote}/remoteEntry.js`);
    expect(entry.headers()['cache-control']).toBe('no-cache');
    const remotes = await request.get('/remotes.json');
    // It is this browser's own (its QA pins, its dev pins): never kept.
    expect(remotes.headers()['cache-control']).toBe('no-store');
    expect(Object.keys((await remotes.json()).remotes)).toContain('remote-browse');
  });
});

test.describe('members', () => {
  test("a member's browse and title pages come through nginx, rendered by the instances", async ({ page, member }) => {
    expect(member.email).toContain('@');
    const browse = await page.goto('/browse');
    expect((await browse!.allHeaders()).server).toBe('nginx');
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();

    const title = await page.goto('/title/604');
    expect(await title!.text()).toContain('id="netnet-state"');
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).not.toBeEmpty();
    await expect(page.getByRole('main').getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  });
});

test.describe('instances come and go', () => {
  test.use(asVisitor);

  test('kill -9 of one instance mid-test: every GET is still answered, and the instance comes back', async () => {
    const before = await allReady();
    const victim = before.instances[0]!;
    const { sent, failures } = await underLoad('/', 50, 8, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      process.kill(victim.pid!, 'SIGKILL');
    });
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(400);
    const after = await allReady();
    expect(after.instances[0]!.pid).not.toBe(victim.pid);
  });

  test('a rolling restart of every instance under load fails no request', async () => {
    const before = await allReady();
    const { sent, failures } = await underLoad('/browse', 50, 30, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      process.kill(before.pid, 'SIGHUP');
      const asked = Date.now();
      // 5 times the 8.5 s it takes on the 2-core machine at CI (7.9-9.9 s).
      await expect.poll(() => clusterState().rollingRestarts, { timeout: 45_000 }).toBe(before.rollingRestarts + 1);
      console.log(`rolling restart done ${Date.now() - asked} ms after SIGHUP, under load`);
    });
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(1500);
    const after = await allReady();
    after.instances.forEach((instance, i) => expect(instance.pid).not.toBe(before.instances[i]!.pid));
  });
});
