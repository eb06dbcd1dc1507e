import { hostname } from 'node:os';
import type { Browser, Request } from '@playwright/test';
import { test, expect } from '../support/test';
import {
  allReady,
  clusterState,
  instanceOrigins,
  metricsOf,
  npmRun,
  pageMapOf,
  publishCopies,
  putBack,
  remotesJsonOf,
  servedNow,
  sumOf,
  type RemoteMap,
} from '../support/cluster';
import { clusterEnvironment } from '../support/clusterEnvironment';
import { auditSince, mapVersion, readMap } from '../support/controlPlane';
import { siteUrl } from '../support/site';
import { forwardFromNetwork } from '../support/networks';

// Staged rollouts on the cluster (docs/deploy.md): the release owner's commands and the guard act
// on the store every instance shares, and every instance — whichever one nginx sends a member
// to — serves what they decided (docs/store.md, "Release health"). The
// releases are copies of remote-auth's production build published under this run's versions; the
// environment is the one the cluster serves (support/clusterEnvironment.ts), put back as found.

const REMOTE = 'remote-auth';
const run = Date.now().toString(36);
const TAGLINE = 'Unlimited movies, TV shows, and more.';

/**
 * The canary of REMOTE as every answer names it: /remotes.json and a page rendered by the server,
 * each straight from every instance and several times through nginx (which spreads them over the
 * instances). null where an answer names no canary.
 */
async function canaryEverywhere(): Promise<(string | null)[]> {
  const canaryOf = (map: RemoteMap) => map.remotes[REMOTE]?.canary?.version ?? null;
  const origins = [...instanceOrigins(), ...Array.from({ length: 4 }, () => siteUrl)];
  const answers = await Promise.all(origins.flatMap((origin) => [remotesJsonOf(origin), pageMapOf(origin)]));
  return answers.map(canaryOf);
}
const everywhere = <T>(value: T): T[] => Array.from({ length: (instanceOrigins().length + 4) * 2 }, () => value);

test('a canary set with the CLI is on the pages of every instance within a second, and a rollback takes it off everywhere', async () => {
  const STABLE = `6.0.0-e2e.${run}`;
  const CANARY = `6.1.0-e2e.${run}`;
  await allReady();
  const before = await servedNow();
  const unpublish = await publishCopies(REMOTE, [{ version: STABLE }, { version: CANARY }]);
  try {
    await npmRun('rollout', 'stable', REMOTE, STABLE);
    await expect.poll(canaryEverywhere).toEqual(everywhere(null));

    await npmRun('rollout', 'canary', REMOTE, CANARY, '--percent', '50');
    const set = Date.now();
    await expect.poll(canaryEverywhere, { timeout: 1_000, intervals: [50] }).toEqual(everywhere(CANARY));
    console.log(`canary on every answer ${Date.now() - set} ms after the command returned`);

    expect(await npmRun('rollout', 'rollback', REMOTE)).toContain(`stable ${STABLE}`);
    const rolledBack = Date.now();
    await expect.poll(canaryEverywhere, { timeout: 1_000, intervals: [50] }).toEqual(everywhere(null));
    console.log(`rollback on every answer ${Date.now() - rolledBack} ms after the command returned`);
  } finally {
    await unpublish();
    await putBack(before);
  }
});

test('a release owner sets a canary in the console, and every instance serves it within a second', async ({ page }) => {
  const STABLE = `6.6.0-e2e.${run}`;
  const CANARY = `6.7.0-e2e.${run}`;
  const PERSON = `cluster-owner-${run}`;
  await allReady();
  const before = await servedNow();
  const unpublish = await publishCopies(REMOTE, [{ version: STABLE }, { version: CANARY }]);
  try {
    await npmRun('rollout', 'stable', REMOTE, STABLE);
    await npmRun('rollout', 'canary', REMOTE, CANARY, '--percent', '10');
    const link = (await npmRun('tokens', 'create', PERSON, '--remotes', REMOTE, '--environments', clusterEnvironment, '--actions', 'canary,rollback,status', '--person')).trim();
    await page.goto(link);
    await expect(page.getByRole('heading', { name: `Every remote in ${clusterEnvironment}` })).toBeVisible();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: REMOTE, exact: true }) });
    await card.getByRole('button', { name: `Set canary share ${REMOTE}` }).click();
    const dialog = page.getByRole('dialog', { name: `Set the canary: ${REMOTE} in ${clusterEnvironment}` });
    await dialog.getByLabel('Share of members (%)').fill('40');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('e2e: every instance within a second');
    const since = await mapVersion(clusterEnvironment);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const set = Date.now();
    await expect(dialog).toBeHidden();
    const percentEverywhere = async () =>
      (await Promise.all([...instanceOrigins(), ...Array.from({ length: 4 }, () => siteUrl)].map(remotesJsonOf))).map((map) => map.remotes[REMOTE]?.canary?.percent ?? null);
    await expect.poll(percentEverywhere, { timeout: 1_500, intervals: [50] }).toEqual(Array.from({ length: instanceOrigins().length + 4 }, () => 40));
    console.log(`the console's 40 % on every instance ${Date.now() - set} ms after Confirm`);
    await expect(card.getByText(`${CANARY} at 40 %`)).toBeVisible();
    // The change is the person's in the audit trail every instance's store holds.
    expect((await auditSince(clusterEnvironment, since)).filter((entry) => entry.actor === `person:${PERSON}`).map((entry) => entry.action)).toContain('canary');
  } finally {
    await npmRun('tokens', 'revoke', PERSON).catch(() => '');
    await unpublish();
    await putBack(before);
  }
});

interface Visit {
  channel: string;
  version: string;
  /** counted: the server saw the canary fail and counted it itself (the page then reports nothing of it). */
  fellBackFrom?: { version: string; channel: string; counted?: boolean };
  /** The page's first batch of reports, and how the site answered it. */
  beacon: { reports: { release?: string; outcome?: string }[]; status: number | undefined; refusal?: string };
}

/** One new visitor on `/` through nginx (from `origin`): the page works, and its browser sends its reports. */
async function visit(browser: Browser, origin: string): Promise<Visit> {
  const context = await browser.newContext({ baseURL: origin });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const sent = page.waitForRequest((request: Request) => request.method() === 'POST' && new URL(request.url()).pathname === '/health/reports', { timeout: 30_000 });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: TAGLINE })).toBeVisible();
    await expect(page.getByText('This part of Netnet is unavailable right now')).toHaveCount(0);
    // Answered, not only sent: the instance counts a batch once the store has it.
    const request = await sent;
    const answer = await request.response();
    const { reports = [] } = JSON.parse(request.postData() ?? '{}') as { reports?: Visit['beacon']['reports'] };
    const status = await page.evaluate((remote) => (window as unknown as { 'netnet:remotes': Record<string, Omit<Visit, 'beacon'>> })['netnet:remotes'][remote], REMOTE);
    expect(errors, 'uncaught errors').toEqual([]);
    if (!status) throw new Error(`the page says nothing of ${REMOTE}`);
    // A refusal says why in its body: kept, so a failure below names it.
    const refusal = answer && answer.status() !== 204 ? await answer.text().catch(() => '(unread)') : undefined;
    return { ...status, beacon: { reports, status: answer?.status(), refusal } };
  } finally {
    await context.close();
  }
}

interface GuardEntry {
  remote: string;
  action: string;
  version: string;
  reason: string;
}

test('a canary whose page chunk is missing is rolled back by one guard, the lease holder, from reports that reached both instances', async ({ browser }) => {
  test.setTimeout(240_000);
  const STABLE = `6.2.0-e2e.${run}`;
  const BROKEN = `6.3.0-e2e.${run}`;
  await allReady();
  const before = await servedNow();
  const unpublish = await publishCopies(REMOTE, [{ version: STABLE }, { version: BROKEN, without: 'Landing' }]);
  try {
    await npmRun('rollout', 'stable', REMOTE, STABLE);
    const since = await mapVersion(clusterEnvironment);
    await npmRun('rollout', 'canary', REMOTE, BROKEN, '--percent', '50');

    // Visitors, 4 at a time from three client networks (the guard rolls back only on failures from
    // several), until the canary is gone (no command is given) or far more met it than the guard needs.
    const visits: Visit[] = [];
    // The visits of the round in which the guard rolled the canary back: a page rendered with the
    // canary just before may ask for its ticket just after, and a ticket names only what the map
    // gives now (docs/release-health.md), so that page's report of the canary is refused, rightly.
    let lastRound: Visit[] = [];
    const canaryNow = async () => (await readMap<{ remotes: Record<string, { canary?: { version: string } }> }>(clusterEnvironment))!.remotes[REMOTE]!.canary?.version;
    const networks = await Promise.all([31, 32, 33].map((network) => forwardFromNetwork(Number(new URL(siteUrl).port), network)));
    try {
      while ((await canaryNow()) === BROKEN) {
        lastRound = await Promise.all(networks.concat(networks[0]!).map((network) => visit(browser, network.url)));
        visits.push(...lastRound);
        expect(visits.length, 'visitors before the guard acted').toBeLessThan(120);
      }
    } finally {
      await Promise.all(networks.map((network) => network.close()));
    }
    const metCanary = visits.filter((one) => one.fellBackFrom?.version === BROKEN);
    // A canary that fails every session is judged after 8 failures (docs/release-health.md).
    expect(metCanary.length).toBeGreaterThanOrEqual(8);
    for (const one of metCanary) expect(one).toMatchObject({ version: STABLE, channel: 'stable' });

    // Both instances took reports of this rollout (nginx spread the beacons), and together every
    // failure of the canary they were told of: by a page's first batch, which the site accepted,
    // or by the server that saw the canary fail itself. A page whose failure came after its first
    // batch tells it in a later one, which may still be on its way when the visits end: counted,
    // but not waited for. Nothing is counted beyond the visitors who met the canary.
    const reports = (samples: Awaited<ReturnType<typeof metricsOf>>, labels: Record<string, string>) => sumOf(samples, 'netnet_health_reports_total', { remote: REMOTE, ...labels });
    const failuresCounted = async () => (await Promise.all(instanceOrigins().map(metricsOf))).reduce((sum, samples) => sum + reports(samples, { release: BROKEN, channel: 'canary', outcome: 'fell-back' }), 0);
    // An honest page's reports are taken: a refusal of one would be the collector's fault.
    const rolledBackMeanwhile = (one: Visit) => lastRound.includes(one) && one.beacon.status === 403 && /was not given/.test(one.beacon.refusal ?? '');
    const refused = visits.filter((one) => one.beacon.status !== 204 && !rolledBackMeanwhile(one)).map(({ beacon }) => ({ status: beacon.status, refusal: beacon.refusal, reports: beacon.reports }));
    console.log(`first batches refused as the guard rolled the canary back: ${visits.filter(rolledBackMeanwhile).length} of the last ${lastRound.length} visits`);
    expect(refused, 'first batches refused').toEqual([]);
    const toldInFirstBatch = (one: Visit) => one.beacon.status === 204 && one.beacon.reports.some((report) => report.release === BROKEN && report.outcome === 'fell-back');
    const told = metCanary.filter((one) => one.fellBackFrom?.counted || toldInFirstBatch(one)).length;
    console.log(`canary failures told: ${told} of ${metCanary.length} (first batches answered ${JSON.stringify(metCanary.map((one) => one.beacon.status))})`);
    await expect.poll(failuresCounted, { timeout: 10_000 }).toBeGreaterThanOrEqual(told);
    expect(await failuresCounted()).toBeLessThanOrEqual(metCanary.length);
    const perInstance = await Promise.all(instanceOrigins().map(metricsOf));
    const taken = perInstance.map((samples) => reports(samples, { release: STABLE }) + reports(samples, { release: BROKEN }));
    console.log(`reports taken by each instance: ${taken.join(', ')}; ${metCanary.length} of ${visits.length} visitors met the canary`);
    for (const count of taken) expect(count).toBeGreaterThan(0);

    // One rollback, by the one guard: the cluster's guard process, which holds the lease.
    const rollout = (await readMap<{ guardHistory?: GuardEntry[] }>(clusterEnvironment))!;
    const decided = (rollout.guardHistory ?? []).filter((entry) => entry.version === BROKEN);
    expect(decided).toEqual([expect.objectContaining({ remote: REMOTE, action: 'rollback', reason: expect.stringMatching(/^failure rate: canary /) })]);
    const changes = (await auditSince(clusterEnvironment, since)).filter((entry) => entry.remote === REMOTE);
    expect(changes.map((entry) => entry.action)).toEqual(['canary', 'rollback']);
    expect(changes[1]!.actor).toBe(`guard@${hostname()}:${clusterState().guard}`);

    // Every instance serves the stable alone now, and a new visitor gets it.
    for (const origin of instanceOrigins()) expect((await remotesJsonOf(origin)).remotes[REMOTE]).toMatchObject({ stable: { version: STABLE } });
    for (const origin of instanceOrigins()) expect((await remotesJsonOf(origin)).remotes[REMOTE]!.canary).toBeUndefined();
    const after = await visit(browser, siteUrl);
    expect(after).toMatchObject({ version: STABLE, channel: 'stable' });
    expect(after.fellBackFrom).toBeUndefined();
  } finally {
    await unpublish();
    await putBack(before);
  }
});
