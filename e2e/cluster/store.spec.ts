import { test, expect } from '../support/test';
import { allReady, instanceOrigins, metricsOf, npmRun, pageMapOf, postReports, publishCopies, putBack, remotesJsonOf, servedNow, sumOf, underLoad } from '../support/cluster';
import { startDatabase, stopDatabase, storeIsEmbedded } from '../support/controlPlane';

// The store away (docs/store.md): every instance keeps rendering pages from the
// last good map it holds, says it is stale (/metrics, /healthz), refuses release-health batches it
// cannot store (503: nothing acknowledged is lost), and catches up by itself once the database
// answers again — the stale flag gone, reports taken, and a change made then reaching it at once.

const REMOTE = 'remote-auth';
const run = Date.now().toString(36);
const STABLE = `6.4.0-e2e.${run}`;
const CANARY = `6.5.0-e2e.${run}`;
// About how long the database stays away: several of the instances' 2 s polls and 1 s reconnects.
const AWAY_MS = 10_000;
// How long every instance may take to be fresh again once the database is back. The target is 5 s
// (docs/deploy.md); they took 1,536 and 1,692 ms in two full runs, and a time bound in a test is five
// times its median on the 2-core machine (issue 43), not the target.
const CATCH_UP_MS = 8_500;

/** Each instance's netnet_store_stale, straight from its port: 1 while it serves its last good map. */
const staleFlags = async () => Promise.all(instanceOrigins().map(async (origin) => sumOf(await metricsOf(origin), 'netnet_store_stale')));
/** What each instance's readiness probe says: still taking traffic, and what it knows of the store. */
const probes = async () =>
  Promise.all(
    instanceOrigins().map(async (origin) => {
      const response = await fetch(`${origin}/healthz`);
      return { status: response.status, store: ((await response.json()) as { store?: { stale: boolean } }).store };
    }),
  );
const report = { remote: REMOTE, release: STABLE, channel: 'stable', outcome: 'loaded' };
const canaries = async () => Promise.all(instanceOrigins().map(async (origin) => (await remotesJsonOf(origin)).remotes[REMOTE]?.canary?.version ?? null));

test('the database stopped for 10 s under load: pages keep rendering, the instances say they are stale and refuse reports, then catch up and take a change made at once', async () => {
  test.skip(!storeIsEmbedded(), 'it stops the embedded PostgreSQL; a store at DATABASE_URL is not the test’s to stop');
  test.setTimeout(120_000);
  await allReady();
  const before = await servedNow();
  const unpublish = await publishCopies(REMOTE, [{ version: STABLE }, { version: CANARY }]);
  let away = false;
  try {
    await npmRun('rollout', 'stable', REMOTE, STABLE);
    await expect.poll(async () => Promise.all(instanceOrigins().map(async (origin) => (await remotesJsonOf(origin)).remotes[REMOTE]!.stable.version))).toEqual(
      instanceOrigins().map(() => STABLE),
    );
    const origins = instanceOrigins();
    expect(await staleFlags()).toEqual(origins.map(() => 0));

    // GETs of / through nginx, 25 a second for 20 s: longer than the outage and its usual catching up.
    const { sent, failures } = await underLoad('/', 25, 20, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await stopDatabase();
      away = true;
      const stoppedAt = Date.now();

      // Every instance knows it serves an old map, stays ready, and refuses what it cannot store.
      await expect.poll(staleFlags, { timeout: 5_000, intervals: [100] }).toEqual(origins.map(() => 1));
      console.log(`every instance stale ${Date.now() - stoppedAt} ms after the database stopped`);
      expect(await probes()).toEqual(origins.map(() => ({ status: 200, store: expect.objectContaining({ stale: true }) })));
      expect(await Promise.all(origins.map((origin) => postReports(origin, [report])))).toEqual(origins.map(() => 503));
      // Each renders pages, with the map it had.
      for (const origin of origins) expect((await pageMapOf(origin)).remotes[REMOTE]!.stable.version).toBe(STABLE);

      // The database stays away for AWAY_MS in all: an outage, not a blip between two polls.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, stoppedAt + AWAY_MS - Date.now())));
      expect(await staleFlags()).toEqual(origins.map(() => 1));
      await startDatabase();
      away = false;
      const back = Date.now();

      // A release owner's change right after the database is back reaches every instance within a second.
      await npmRun('rollout', 'canary', REMOTE, CANARY, '--percent', '10');
      const changed = Date.now();
      await expect.poll(canaries, { timeout: 1_000, intervals: [50] }).toEqual(origins.map(() => CANARY));
      console.log(`the change on every instance ${Date.now() - changed} ms after the command returned (${changed - back} ms after the database was back)`);

      // Soon after its return (CATCH_UP_MS), no instance is stale and each stores reports again.
      await expect.poll(staleFlags, { timeout: Math.max(1, back + CATCH_UP_MS - Date.now()), intervals: [100] }).toEqual(origins.map(() => 0));
      await expect
        .poll(async () => Promise.all(origins.map((origin) => postReports(origin, [report]))), { timeout: Math.max(1, back + CATCH_UP_MS - Date.now()), intervals: [100] })
        .toEqual(origins.map(() => 204));
      console.log(`caught up ${Date.now() - back} ms after the database was back`);
    });
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(500);
  } finally {
    if (away) await startDatabase();
    await unpublish();
    await putBack(before);
  }
});
