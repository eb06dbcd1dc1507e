import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/test';
import { allReady, clusterState, instanceOrigins, putBack, remotesJsonOf, servedNow, untilRenderProcessesReady } from '../support/cluster';
import { clusterEnvironment } from '../support/clusterEnvironment';
import { copyBuildAs } from '../support/buildCopy.mjs';
import { apiCall as api } from '../support/controlPlaneApi';
import { forgetReleases, forgetToken } from '../support/controlPlane';
import site from '@netnet/site';

// Releases live in the store (docs/store.md, "Release files"), and nothing else is shared between
// the cluster's processes (docs/deploy.md): a release published through one API replica is known
// to the other and served and rendered by every instance, whose working folders hold no copy of it
// until they serve it; deleting every working folder while the cluster runs changes nothing a
// member sees — the same bytes and validators through nginx's releases origin and each instance's
// /releases/, the landing page rendered on the server with the release, the browser loading it —
// and an instance started afresh after that loads the release's server build from the store.

const root = resolve(__dirname, '../..');
const execute = promisify(execFile);
const REMOTE = 'remote-auth';
const run = Date.now().toString(36);
const TOKEN_NAME = `auth-ci-releases-${run}`;
const STABLE = `9.0.0-e2e.${run}`;
const TAGLINE = 'Unlimited movies, TV shows, and more.';
const { deployUrl } = site.readSite();

/** remote-auth's build copied as `version` and archived with tar, as a pipeline's build step leaves it. */
async function archiveOf(staging: string, version: string): Promise<Buffer> {
  const copy = join(staging, version);
  copyBuildAs({ root, remote: REMOTE, version, copy });
  const file = join(staging, `${version}.tgz`);
  await execute('tar', ['-C', copy, '-czf', file, '.']);
  return readFileSync(file);
}

const sha384 = (body: Buffer) => `sha384-${createHash('sha384').update(body).digest('base64')}`;

/** The release's record (its integrity.json) as published: the hash of each of its files. */
async function recordOf(): Promise<Record<string, string>> {
  const response = await fetch(`${deployUrl}/${REMOTE}/${STABLE}/integrity.json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { files: Record<string, string> }).files;
}

/**
 * What members get of the release, checked: its files from nginx's releases origin and from each
 * instance's /releases/ (the bytes it recorded, one ETag everywhere), the landing page each
 * instance renders with it, and the page in a browser through the front door loading it. Returns
 * each file's ETag, to compare with another time.
 */
async function whatMembersGet(page: Page, files: string[], record: Record<string, string>): Promise<Record<string, string>> {
  const etags: Record<string, string> = {};
  for (const origin of [deployUrl, ...instanceOrigins().map((instance) => `${instance}/releases`)]) {
    for (const file of files) {
      const url = `${origin}/${REMOTE}/${STABLE}/${file}`;
      const response = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
      expect(response.status, url).toBe(200);
      expect(sha384(Buffer.from(await response.arrayBuffer())), `${url}: the bytes published`).toBe(record[file]);
      const etag = response.headers.get('etag') ?? '';
      expect(etag, url).not.toBe('');
      etags[file] ??= etag;
      expect(etag, `${url}: the same validator from every instance`).toBe(etags[file]);
      expect((await fetch(url, { headers: { 'Accept-Encoding': 'identity', 'If-None-Match': etag } })).status, `${url} revalidated`).toBe(304);
    }
  }
  for (const origin of instanceOrigins()) {
    const html = await (await fetch(`${origin}/`)).text();
    const state = /<script type="application\/json" id="netnet-state">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(state, `${origin}/ rendered by the server`).toBeTruthy();
    expect((JSON.parse(state!) as { chosen: Record<string, { version: string }> }).chosen[REMOTE], `${origin}/ rendered with ${STABLE}`).toMatchObject({ version: STABLE });
    expect(html).toContain(TAGLINE);
  }
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${deployUrl}/${REMOTE}/${STABLE}/`) && response.status() >= 400) refused.push(`${response.url()}: ${response.status()}`);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
  await expect
    .poll(() => page.evaluate((remote) => (window as unknown as { 'netnet:remotes'?: Record<string, { version: string; state: string }> })['netnet:remotes']?.[remote], REMOTE))
    .toMatchObject({ version: STABLE, state: 'loaded' });
  expect(refused).toEqual([]);
  return etags;
}

test('a release published through one API replica is served and rendered by every instance; deleting every working folder changes nothing a member sees', async ({ page }) => {
  test.setTimeout(240_000);
  const { apis, workingFolders } = await allReady();
  expect(apis.length, 'two API replicas').toBe(2);
  const first = apis[0]!;
  const second = apis[1]!;
  const before = await servedNow();
  const staging = mkdtempSync(join(tmpdir(), 'netnet-releases-'));
  const { stdout } = await execute('npm', ['run', '--silent', 'tokens', '--', 'create', TOKEN_NAME, '--remotes', REMOTE, '--environments', clusterEnvironment, '--actions', 'publish,stable'], { cwd: root });
  const token = stdout.trim();
  try {
    const published = await api(token, 'POST', `/v1/remotes/${REMOTE}/releases/${STABLE}`, { archive: await archiveOf(staging, STABLE), at: second.url });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const copyIn = (name: string) => existsSync(join(workingFolders[name]!, REMOTE, STABLE));
    expect(copyIn(second.name), 'the publishing replica keeps a working copy').toBe(true);
    expect(copyIn(first.name), 'the other replica has none: nothing is shared on disk').toBe(false);
    // The other replica knows it from the store.
    const stable = await api(token, 'PUT', `/v1/environments/${clusterEnvironment}/remotes/${REMOTE}/stable`, { json: { version: STABLE }, at: first.url });
    expect(stable.status, JSON.stringify(stable.body)).toBe(200);
    await expect.poll(async () => Promise.all(instanceOrigins().map(async (origin) => (await remotesJsonOf(origin)).remotes[REMOTE]?.stable.version))).toEqual(instanceOrigins().map(() => STABLE));
    for (const origin of instanceOrigins()) await untilRenderProcessesReady(origin, REMOTE, STABLE);

    const record = await recordOf();
    // The entry documents (read from the working folder every time) and a hashed chunk (kept in memory once hot).
    const chunk = Object.keys(record).find((file) => /^[^/]+\.[0-9a-f]{10}\.js$/.test(file));
    expect(chunk, 'the release has a hashed chunk').toBeTruthy();
    const files = ['mf-manifest.json', 'remoteEntry.js', chunk!];
    const served = await whatMembersGet(page, files, record);
    for (const name of Object.keys(workingFolders).filter((folder) => folder.startsWith('shell-'))) {
      expect(copyIn(name), `${name} made its working copy from the store`).toBe(true);
    }

    for (const folder of Object.values(workingFolders)) rmSync(folder, { recursive: true, force: true });
    expect(await whatMembersGet(page, files, record), 'the same files, validators and pages without any working folder').toEqual(served);

    // An instance started afresh with no working folder: its warm-up loads the release's server
    // build from the store, and it renders the page with it.
    const victim = clusterState().instances[0]!;
    process.kill(victim.pid!, 'SIGKILL');
    await expect.poll(() => clusterState().instances[0]!.pid).not.toBe(victim.pid);
    await allReady();
    await untilRenderProcessesReady(`http://127.0.0.1:${victim.port}`, REMOTE, STABLE);
    expect(await whatMembersGet(page, files, record)).toEqual(served);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    try {
      // The release gone first, so the map put back lists no pin of it (as publishCopies' undo does).
      await forgetReleases(REMOTE, [STABLE]);
      await putBack(before);
    } finally {
      await forgetToken(TOKEN_NAME);
    }
  }
});
