// Contract of an instance's live map against a real PostgreSQL (./testDatabase.ts): a change is
// heard within a second; an older or empty map in the store is never taken; while the database
// is away the last good map is served and said to be stale; after a cut or a restart it recovers
// by itself and picks up what changed meanwhile.
// Run: node --import tsx --test control-plane/src/store/liveMap.test.ts
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { after, afterEach, before, beforeEach, describe, it, type TestContext } from 'node:test';
import { startEmbedded } from './embedded.ts';
import { watchMap, type LiveMap } from './liveMap.ts';
import { recordQaToken } from './qaTokens.ts';
import { registerRelease } from './releases.ts';
import { updateRollout } from './rollouts.ts';
import { testDatabase, type TestDatabase } from './testDatabase.ts';

const run = promisify(execFile);
const REMOTE = 'remote-title';
const mapWith = (stable: string) => ({ remotes: { [REMOTE]: { stable, history: [] } } });

/**
 * Resolves with the ms it took once `check()` holds, said as a diagnostic of `t` beside its bound;
 * fails after `ms`, saying what `describe()` says. A bound is at least five times the median of its
 * figure on the 2-core machine the suite runs on (issue 43): a test's bound, not the product's target.
 */
async function within(t: TestContext, ms: number, check: () => boolean, describe = () => '') {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > ms) assert.fail(`not within ${ms} ms: ${describe()}`);
    await sleep(10);
  }
  const took = performance.now() - started;
  t.diagnostic(`held after ${Math.round(took)} ms (bound ${Math.round(ms)} ms)`);
  return took;
}

describe('live map', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let db: TestDatabase['pool'];
  let environment: string;
  let runs = 0;
  const watchers: LiveMap[] = [];
  before(async () => {
    database = await testDatabase();
    db = database.pool;
  });
  after(() => database.close());
  // One instance at a time: each test cuts or counts the listening connection of its own.
  afterEach(() => Promise.all(watchers.splice(0).map((watcher) => watcher.close())));
  beforeEach(() => {
    environment = `live-${(runs += 1)}`;
  });
  const set = (stable: string) => updateRollout(db, environment, () => mapWith(stable), { actor: 'test', action: 'stable', remote: REMOTE });
  const watch = async (options: { pollMs?: number } = {}) => {
    const lines: string[] = [];
    const changes: number[] = [];
    const watcher = await watchMap({ db, config: database.config, environment, log: (line) => lines.push(line), onChange: (version) => changes.push(version), ...options });
    watchers.push(watcher);
    return { watcher, lines, changes };
  };
  const describeState = (watcher: LiveMap) => () => JSON.stringify({ ...watcher.state(), current: watcher.current().version });

  it('hears a QA token made or revoked within 1 s, whoever changed the table', async (t) => {
    await set('1.0.0');
    const { watcher } = await watch({ pollMs: 60_000 });
    const id = 'q'.repeat(22);
    assert.equal(watcher.current().qaTokens.has(id), false);
    await recordQaToken(db, { id, environment, madeFor: 'qa@team', createdBy: 'test', expiresAt: new Date(Date.now() + 3600_000) });
    await within(t, 1_000, () => watcher.current().qaTokens.has(id), describeState(watcher));
    // Revoked by hand in the store: the database's own trigger announces it.
    await db.query('UPDATE qa_tokens SET revoked_at = now() WHERE id = $1', [id]);
    await within(t, 1_000, () => !watcher.current().qaTokens.has(id), describeState(watcher));
    await db.query('DELETE FROM qa_tokens WHERE id = $1', [id]);
  });

  it('hears every change within 1 s, through LISTEN/NOTIFY alone', async (t) => {
    await set('1.0.0');
    // Polling out of the way: only a notification can bring a change in time.
    const { watcher, changes } = await watch({ pollMs: 60_000 });
    assert.equal(watcher.current().version, 1);
    assert.equal(watcher.state().listening, true);
    for (let i = 1; i <= 10; i += 1) {
      const { version } = await set(`1.${i}.0`);
      await within(t, 1_000, () => watcher.current().version === version, describeState(watcher));
      assert.deepEqual(watcher.current().rollout, mapWith(`1.${i}.0`));
    }
    // Each new version told once (the instance starts its new releases' render processes then); not the first read.
    assert.deepEqual(changes, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // A release published is heard too.
    await registerRelease(db, REMOTE, '7.0.0', null);
    await within(t, 1_000, () => watcher.current().releases.get(REMOTE)?.some((release) => release.version === '7.0.0') === true, describeState(watcher));
    assert.equal(watcher.state().stale, false);
  });

  it('reads again after a read under way when a change is announced meanwhile, not only at the next poll', async (t) => {
    await set('1.0.0');
    const { watcher } = await watch({ pollMs: 60_000 });
    // A read that sees the map, then waits on the releases: the change below commits in between.
    const blocker = await db.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE releases IN ACCESS EXCLUSIVE MODE');
      const underWay = watcher.refresh();
      await sleep(200);
      const { version } = await set('2.0.0');
      await sleep(200);
      await blocker.query('COMMIT');
      await underWay;
      await within(t, 1_000, () => watcher.current().version === version, describeState(watcher));
      assert.deepEqual(watcher.current().rollout, mapWith('2.0.0'));
    } finally {
      blocker.release();
    }
  });

  it('keeps the map it has when the store holds an older one or none, says so, and takes the next newer one', async (t) => {
    await set('1.0.0');
    await set('1.1.0');
    const { version } = await set('1.2.0');
    const { watcher, lines } = await watch({ pollMs: 60_000 });
    const kept = watcher.current();
    // A database restored from an old backup...
    await db.query("UPDATE rollouts SET version = 1, map = '{\"remotes\": {}}' WHERE environment = $1", [environment]);
    await db.query('SELECT pg_notify($1, $2)', ['netnet_rollout', `${environment} 1`]);
    await within(t, 1_000, () => watcher.state().stale, describeState(watcher));
    assert.equal(watcher.current(), kept);
    assert.match(watcher.state().error ?? '', new RegExp(`holds version 1 of the ${environment} map, older than the ${version} in memory`));
    assert.match(lines.join('\n'), /serving the last good live-\d+ map \(version 3\)/);
    // ...or an empty one: never "no releases".
    await db.query('DELETE FROM rollouts WHERE environment = $1', [environment]);
    await db.query('SELECT pg_notify($1, $2)', ['netnet_rollout', `${environment} 0`]);
    await watcher.refresh();
    assert.equal(watcher.current(), kept);
    assert.equal(watcher.state().stale, true);
    // A newer map than the one held is taken again.
    await db.query("INSERT INTO rollouts (environment, version, map) VALUES ($1, 9, $2::jsonb)", [environment, JSON.stringify(mapWith('2.0.0'))]);
    await db.query('SELECT pg_notify($1, $2)', ['netnet_rollout', `${environment} 9`]);
    await within(t, 1_000, () => watcher.current().version === 9 && !watcher.state().stale, describeState(watcher));
    assert.deepEqual(watcher.current().rollout, mapWith('2.0.0'));
  });

  it('picks up on reconnecting a change made while its connection was cut', async (t) => {
    await set('1.0.0');
    const { watcher } = await watch({ pollMs: 60_000 });
    const { rows } = await db.query<{ cut: boolean }>("SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = 'netnet-listen'");
    assert.deepEqual(rows, [{ cut: true }]);
    await within(t, 2_000, () => !watcher.state().listening, describeState(watcher));
    // Nobody of this instance hears this one: only the resync on reconnect can bring it, a second
    // after the drop (1,006 ms here; the whole test 1,037–1,057 ms in four full runs).
    const { version } = await set('1.1.0');
    await within(t, 5_500, () => watcher.current().version === version && watcher.state().listening, describeState(watcher));
    assert.deepEqual(watcher.current().rollout, mapWith('1.1.0'));
  });

  it('serves the last map while the database is paused, says it is stale once its reads time out, and recovers within 5 s of its resuming', { timeout: 60_000 }, async (t) => {
    await set('1.0.0');
    const { watcher } = await watch();
    const before = structuredClone(watcher.current());
    // A database that answers nothing (a stalled host, a long lock): the server and every one of
    // its processes stopped where they are, connections kept open.
    const postmaster = Number(readFileSync(join(database.embedded.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const processes = [postmaster, ...(await run('ps', ['-o', 'pid=', '--ppid', String(postmaster)])).stdout.split('\n').filter(Boolean).map(Number)];
    const signal = (name: NodeJS.Signals) => processes.forEach((pid) => process.kill(pid, name));
    signal('SIGSTOP');
    try {
      // Its reads give up after openDatabase's timeouts (a few seconds), as a member's request would:
      // 6,984 ms here, the whole test 7.06–7.07 s in four full runs.
      await within(t, 35_000, () => watcher.state().stale, describeState(watcher));
      assert.deepEqual(watcher.current(), before);
    } finally {
      signal('SIGCONT');
    }
    await within(t, 5_000, () => !watcher.state().stale, describeState(watcher));
    assert.deepEqual(watcher.current(), before);
    const { version } = await set('1.1.0');
    await within(t, 1_000, () => watcher.current().version === version, describeState(watcher));
  });

  it('serves the last map while the database is stopped, says it is stale, and recovers within 5 s of its return', { timeout: 60_000 }, async (t) => {
    await set('1.0.0');
    await registerRelease(db, REMOTE, '1.0.0', null);
    // The instance's own settings: the backstop polling is what notices the outage.
    const { watcher, lines } = await watch();
    const before = structuredClone(watcher.current());
    await database.embedded.stop();
    try {
      // The backstop poll (every 2 s) notices: stale 1,802 ms after the stop here.
      await within(t, 10_000, () => watcher.state().stale, describeState(watcher));
      assert.equal(watcher.state().listening, false);
      assert.deepEqual(watcher.current(), before);
      assert.ok(watcher.current().releases.get(REMOTE)?.some((release) => release.version === '1.0.0'));
      assert.match(lines.join('\n'), /serving the last good live-\d+ map \(version 1\)/);
      // Still so a few seconds on.
      await sleep(2_500);
      assert.deepEqual(watcher.current(), before);
      assert.equal(watcher.state().stale, true);
    } finally {
      await startEmbedded(database.dir);
    }
    const back = performance.now();
    // Made as soon as the database is back, before the instance has found it again.
    const { version } = await set('1.1.0');
    await within(t, 5_000 - (performance.now() - back), () => watcher.current().version === version && !watcher.state().stale && watcher.state().listening, describeState(watcher));
    t.diagnostic(`recovered ${Math.round(performance.now() - back)} ms after the database was back`);
    assert.deepEqual(watcher.current().rollout, mapWith('1.1.0'));
    assert.match(lines.join('\n'), /the store answers again; live-\d+ map version [12]$/m);
  });
});
