import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { test, expect } from '../support/test';
import { allReady, instanceOrigins, putBack, remotesJsonOf, servedNow } from '../support/cluster';
import { clusterEnvironment } from '../support/clusterEnvironment';
import { copyBuildAs } from '../support/buildCopy.mjs';
import { apiCall as api } from '../support/controlPlaneApi';
import { auditSince, forgetReleases, forgetToken, mapVersion, readMap, releasesOf } from '../support/controlPlane';
import site from '@netnet/site';

// A team's pipeline against the running cluster (docs/pipelines.md),
// from outside the checkout's commands: plain HTTP to the control-plane API with a token scoped to
// remote-title in the cluster's environment. It publishes a copy of remote-title's build (archived
// with tar, as a pipeline would), sets it stable, publishes another as a canary at 10 %, reads the
// status, promotes it, and every instance serves each step; the same token is refused (403) on
// remote-search, with nothing changed. The map, the releases and the token are put back after.

const root = resolve(__dirname, '../..');
const execute = promisify(execFile);
const REMOTE = 'remote-title';
const OTHER = 'remote-search';
const run = Date.now().toString(36);
const TOKEN_NAME = `title-ci-e2e-${run}`;
const STABLE = `8.0.0-e2e.${run}`;
const CANARY = `8.1.0-e2e.${run}`;
// Upload, verification and publication of remote-title's release (the build excluded): the bound.
const PUBLISH_BUDGET_MS = 5_000;


/** remote-title's build copied as `version` and archived with tar, as a pipeline's build step leaves it. */
async function archiveOf(staging: string, version: string): Promise<Buffer> {
  const copy = join(staging, version);
  copyBuildAs({ root, remote: REMOTE, version, copy });
  const file = join(staging, `${version}.tgz`);
  await execute('tar', ['-C', copy, '-czf', file, '.']);
  return readFileSync(file);
}

const servedEverywhere = () => Promise.all(instanceOrigins().map(async (origin) => (await remotesJsonOf(origin)).remotes[REMOTE]));
const { deployDir } = site.readSite();
const listing = (remote: string) => (existsSync(join(deployDir, remote)) ? readdirSync(join(deployDir, remote)).sort() : []);

test('a team pipeline publishes, canaries at 10 %, reads the status and promotes remote-title through the API; its token is refused on remote-search', async () => {
  test.setTimeout(180_000);
  await allReady();
  const before = await servedNow();
  const staging = mkdtempSync(join(tmpdir(), 'netnet-pipeline-'));
  // The admin's step: a token for this team only (npm run tokens, docs/deploy.md).
  const { stdout } = await execute('npm', ['run', '--silent', 'tokens', '--', 'create', TOKEN_NAME, '--remotes', REMOTE, '--environments', clusterEnvironment, '--actions', 'publish,stable,canary,promote,rollback,status'], { cwd: root });
  const token = stdout.trim();
  expect(token).toMatch(new RegExp(`^netnet_${TOKEN_NAME}_[A-Za-z0-9_-]{43}$`));
  const since = await mapVersion(clusterEnvironment);
  try {
    const env = `/v1/environments/${clusterEnvironment}`;
    // Publish the release that becomes stable, then the canary, timed from the first byte sent to the answer.
    const stableArchive = await archiveOf(staging, STABLE);
    const first = await api(token, 'POST', `/v1/remotes/${REMOTE}/releases/${STABLE}`, { archive: stableArchive });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await api(token, 'PUT', `${env}/remotes/${REMOTE}/stable`, { json: { version: STABLE } })).status).toBe(200);
    await expect.poll(async () => (await servedEverywhere()).map((entry) => entry?.stable.version)).toEqual(instanceOrigins().map(() => STABLE));

    const canaryArchive = await archiveOf(staging, CANARY);
    const started = performance.now();
    const published = await api(token, 'POST', `/v1/remotes/${REMOTE}/releases/${CANARY}`, { archive: canaryArchive });
    const publishMs = performance.now() - started;
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    expect(published.body).toMatchObject({ outcome: 'published', remote: REMOTE, version: CANARY });
    console.log(`published ${REMOTE} ${CANARY} through the API (${canaryArchive.length} bytes of tar.gz, ${String(published.body.files)} files): upload + verification + publication ${Math.round(publishMs)} ms (budget ${PUBLISH_BUDGET_MS} ms)`);
    expect(publishMs).toBeLessThanOrEqual(PUBLISH_BUDGET_MS);
    // A retried step of the pipeline: the same bytes again change nothing.
    expect((await api(token, 'POST', `/v1/remotes/${REMOTE}/releases/${CANARY}`, { archive: canaryArchive })).body).toMatchObject({ outcome: 'unchanged' });

    const canary = await api(token, 'PUT', `${env}/remotes/${REMOTE}/canary`, { json: { version: CANARY, percent: 10 } });
    expect(canary.status, JSON.stringify(canary.body)).toBe(200);
    expect(canary.body.plan).toMatchObject({ stable: STABLE, canary: { version: CANARY, percent: 10 } });
    await expect.poll(async () => (await servedEverywhere()).map((entry) => entry?.canary && { version: entry.canary.version, percent: entry.canary.percent })).toEqual(
      instanceOrigins().map(() => ({ version: CANARY, percent: 10 })),
    );

    // What the pipeline reads while the guard watches: this token's remotes only.
    const status = await api(token, 'GET', `${env}/status`);
    expect(status.status).toBe(200);
    expect(Object.keys(status.body.remotes as object)).toEqual([REMOTE]);
    expect((status.body.remotes as Record<string, { plan: unknown; published: string[] }>)[REMOTE]).toMatchObject({
      plan: { stable: STABLE, canary: { version: CANARY, percent: 10 } },
      published: expect.arrayContaining([STABLE, CANARY]),
    });

    // The same token on another team's remote: 403 for every change, and nothing changes.
    const mapBefore = JSON.stringify(await readMap(clusterEnvironment));
    const versionBefore = await mapVersion(clusterEnvironment);
    const otherReleases = await releasesOf(OTHER);
    const otherFiles = listing(OTHER);
    const refused = [
      await api(token, 'POST', `/v1/remotes/${OTHER}/releases/${CANARY}`, { archive: canaryArchive }),
      await api(token, 'PUT', `${env}/remotes/${OTHER}/stable`, { json: { version: CANARY } }),
      await api(token, 'PUT', `${env}/remotes/${OTHER}/canary`, { json: { version: CANARY, percent: 10 } }),
      await api(token, 'POST', `${env}/remotes/${OTHER}/promote`),
      await api(token, 'POST', `${env}/remotes/${OTHER}/rollback`),
      await api(token, 'PUT', `${env}/pin-policy`, { json: { pinRolledBack: true } }),
    ];
    expect(refused.map((answer) => answer.status)).toEqual(refused.map(() => 403));
    for (const answer of refused) expect(String(answer.body.error)).toMatch(new RegExp(`^the token "${TOKEN_NAME}" may not .*; nothing was changed\\.$`));
    expect(JSON.stringify(await readMap(clusterEnvironment))).toBe(mapBefore);
    expect(await mapVersion(clusterEnvironment)).toBe(versionBefore);
    expect(await releasesOf(OTHER)).toEqual(otherReleases);
    expect(listing(OTHER)).toEqual(otherFiles);

    const promoted = await api(token, 'POST', `${env}/remotes/${REMOTE}/promote`);
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body.plan).toMatchObject({ stable: CANARY, history: expect.arrayContaining([STABLE]) });
    await expect.poll(async () => (await servedEverywhere()).map((entry) => ({ stable: entry?.stable.version, canary: entry?.canary?.version ?? null }))).toEqual(
      instanceOrigins().map(() => ({ stable: CANARY, canary: null })),
    );

    // The audit trail names the token for each change it made, and nothing else changed the map meanwhile.
    const changes = await auditSince(clusterEnvironment, since);
    expect(changes.map(({ actor, action, remote }) => ({ actor, action, remote }))).toEqual(
      ['stable', 'canary', 'promote'].map((action) => ({ actor: `token:${TOKEN_NAME}`, action, remote: REMOTE })),
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
    try {
      // The releases gone first, so the map put back lists no pin of them (as publishCopies' undo does).
      for (const version of [STABLE, CANARY]) rmSync(join(deployDir, REMOTE, version), { recursive: true, force: true });
      await forgetReleases(REMOTE, [STABLE, CANARY]);
      await putBack(before);
    } finally {
      await forgetToken(TOKEN_NAME);
    }
  }
});
