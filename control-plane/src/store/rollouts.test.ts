// Contract of the rollout map in a real PostgreSQL (./testDatabase.ts): every change is a
// compare-and-set on the map's version; changes of different remotes that race both land,
// contradicting changes of one remote never both do and the refused one is told; every change
// leaves one audit entry and one NOTIFY, a refused one neither.
// Run: node --import tsx --test control-plane/src/store/rollouts.test.ts
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import pg from 'pg';
import { DeployError } from '../errors.ts';
import type { Store } from './database.ts';
import { auditTrail, Conflict, readRollout, ROLLOUT_CHANNEL, updateRollout, type RemotePlan, type Rollout } from './rollouts.ts';
import { testDatabase, type TestDatabase } from './testDatabase.ts';

const REMOTES = ['remote-auth', 'remote-browse', 'remote-title', 'remote-search'];
const START = { remotes: Object.fromEntries(REMOTES.map((remote) => [remote, { stable: '1.0.0', history: [] }])) };

const MAP_READ = /^SELECT version, map FROM rollouts\b/;

/**
 * The pool, except that the map reads of the first `writers` callers are all answered before any
 * of them goes on: they all start from the same version, so all but one lose the race for sure.
 * `reads` counts every map read (a writer that lost reads again).
 */
function racing(pool: pg.Pool, writers: number): Store & { reads: number } {
  const held: (() => void)[] = [];
  const db = {
    reads: 0,
    connect: () => pool.connect(),
    async query(text: string, values?: unknown[]) {
      const result = await pool.query(text, values);
      if (MAP_READ.test(text)) {
        db.reads += 1;
        if (db.reads <= writers) {
          await new Promise<void>((resolve) => {
            held.push(resolve);
            if (held.length === writers) for (const go of held) go();
          });
        }
      }
      return result;
    },
  };
  return db;
}

/** A change of one remote's plan, made on the map as it is when applied. */
const changing = (remote: string, plan: Partial<RemotePlan>) => (latest: Rollout | null) => ({
  ...latest,
  remotes: { ...latest?.remotes, [remote]: { ...latest?.remotes[remote], ...plan } },
});

describe('rollout map', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let db: TestDatabase['pool'];
  let environment: string;
  let runs = 0;
  before(async () => {
    database = await testDatabase();
    db = database.pool;
  });
  after(() => database.close());
  beforeEach(() => {
    environment = `rollouts-${(runs += 1)}`;
  });
  const start = (map = START) => updateRollout(db, environment, () => structuredClone(map), { actor: 'test', action: 'import' });
  const auditRows = async () =>
    (
      await db.query<{ map_version: string; actor: string; action: string; remote: string | null; reason: string | null; map: Rollout }>(
        'SELECT map_version, actor, action, remote, reason, map FROM audit WHERE environment = $1 ORDER BY id',
        [environment],
      )
    ).rows.map(
      (row) => ({ ...row, map_version: Number(row.map_version) }),
    );

  it('reads an environment nothing was rolled out to as version 0, no map', async () => {
    assert.deepEqual(await readRollout(db, environment), { version: 0, rollout: null });
    assert.deepEqual(await start(), { version: 1, rollout: START });
    assert.deepEqual(await readRollout(db, environment), { version: 1, rollout: START });
  });

  it('lands two changes of different remotes made at once; the one that lost the race reads again and applies its change there', async () => {
    await start();
    const race = racing(db, 2);
    const [title, browse] = await Promise.all([
      updateRollout(race, environment, changing('remote-title', { canary: { version: '1.1.0', percent: 10 } }), { actor: 'a@host', action: 'canary', remote: 'remote-title' }),
      updateRollout(race, environment, changing('remote-browse', { stable: '1.2.0' }), { actor: 'b@host', action: 'stable', remote: 'remote-browse' }),
    ]);
    assert.equal(race.reads, 3, 'both read version 1, and the loser read again');
    assert.deepEqual([title.version, browse.version].sort(), [2, 3]);
    const { version, rollout } = await readRollout(db, environment);
    assert.equal(version, 3);
    assert.deepEqual(rollout?.remotes['remote-title']?.canary, { version: '1.1.0', percent: 10 });
    assert.equal(rollout?.remotes['remote-browse']?.stable, '1.2.0');
    assert.deepEqual((await auditRows()).map((row) => row.map_version), [1, 2, 3]);
  });

  it('lands both when the environment had no map yet (the first write is an insert)', async () => {
    const race = racing(db, 2);
    const first = (remote: string) => (latest: Rollout | null) => ({ remotes: { ...latest?.remotes, [remote]: { stable: '1.0.0' } } });
    await Promise.all([
      updateRollout(race, environment, first('remote-title'), { actor: 'a', action: 'stable', remote: 'remote-title' }),
      updateRollout(race, environment, first('remote-auth'), { actor: 'b', action: 'stable', remote: 'remote-auth' }),
    ]);
    assert.equal(race.reads, 3);
    const { version, rollout } = await readRollout(db, environment);
    assert.equal(version, 2);
    assert.deepEqual(Object.keys(rollout?.remotes ?? {}).sort(), ['remote-auth', 'remote-title']);
  });

  it('of contradicting changes of one remote made at once, lands one and refuses the others with a Conflict, writing nothing for them', async () => {
    const { version: before } = await start();
    const writers = 4;
    const race = racing(db, writers);
    const attempts = Array.from({ length: writers }, (_, i) =>
      updateRollout(race, environment, changing('remote-title', { canary: { version: `1.${i + 1}.0`, percent: 10 * (i + 1) } }), {
        actor: `owner-${i}@host`,
        action: 'canary',
        remote: 'remote-title',
      }),
    );
    const results = await Promise.allSettled(attempts);
    const landed = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    assert.equal(landed.length, 1);
    assert.equal(refused.length, writers - 1);
    for (const { reason } of refused) {
      assert.ok(reason instanceof Conflict, (reason as Error).stack);
      assert.ok(reason instanceof DeployError, 'the CLI prints it and exits 1');
      assert.match((reason as Error).message, /^remote-title in rollouts-\d+ was changed by someone else meanwhile \(now stable 1\.0\.0, canary 1\.\d\.0 at \d+%\); nothing was changed/);
    }
    const { version, rollout } = await readRollout(db, environment);
    assert.equal(version, before + 1);
    assert.deepEqual(rollout, landed[0]?.value.rollout);
    const audit = await auditRows();
    assert.equal(audit.length, 2);
    assert.deepEqual(audit[1]?.map, rollout);
  });

  it('loses no change among many writers at once: each audit entry is the one before with only its own remote changed', async () => {
    await start();
    // Four owners per remote, each moving its remote's canary; none holds the others back.
    const attempts = [];
    for (const remote of REMOTES) {
      for (let i = 1; i <= 4; i += 1) {
        attempts.push(
          updateRollout(db, environment, changing(remote, { canary: { version: `2.${i}.0`, percent: i } }), { actor: `${remote}-${i}`, action: 'canary', remote }).then(
            (result) => ({ remote, ...result }),
          ),
        );
      }
    }
    const results = await Promise.allSettled(attempts);
    const landed = results.filter((result) => result.status === 'fulfilled').map((result) => result.value);
    for (const result of results) if (result.status === 'rejected') assert.ok(result.reason instanceof Conflict, (result.reason as Error).stack);
    // Every remote's first writer lands at least: a change of another remote never refuses one.
    assert.deepEqual([...new Set(landed.map((result) => result.remote))].sort(), [...REMOTES].sort());
    const audit = await auditRows();
    assert.deepEqual(audit.map((row) => row.map_version), Array.from({ length: landed.length + 1 }, (_, i) => i + 1));
    for (let i = 1; i < audit.length; i += 1) {
      const { remote, map, map_version: version } = audit[i]!;
      const expected = structuredClone(audit[i - 1]!.map);
      expected.remotes[remote!] = map.remotes[remote!]!;
      assert.deepEqual(map, expected, `version ${version} changed only ${remote}`);
      const result = landed.find((candidate) => candidate.version === version);
      assert.deepEqual(result?.rollout, map, 'each writer was told the map it made');
      assert.equal(audit[i]!.actor, `${result?.remote}-${result?.rollout.remotes[result.remote]?.canary?.percent}`);
    }
    assert.deepEqual((await readRollout(db, environment)).rollout, audit.at(-1)?.map);
  });

  it('leaves one audit entry per change, with who, what, why and the map version, and none for a change refused', async () => {
    await start();
    await updateRollout(db, environment, changing('remote-title', { canary: { version: '1.1.0', percent: 5 } }), {
      actor: 'ana@laptop',
      action: 'canary',
      remote: 'remote-title',
    });
    await updateRollout(db, environment, (latest) => ({ ...latest, remotes: { ...latest?.remotes, 'remote-title': { stable: '1.0.0', history: [], rolledBack: ['1.1.0'] } } }), {
      actor: 'guard@host:1',
      action: 'rollback',
      remote: 'remote-title',
      reason: 'failure rate: canary 1.1.0 failed 10 of 100 sessions',
    });
    // Refused before writing: a malformed map, and a change that throws.
    await assert.rejects(updateRollout(db, environment, () => ({ remotes: { 'remote-title': {} } }), { actor: 'x', action: 'bad' }), DeployError);
    await assert.rejects(
      updateRollout(
        db,
        environment,
        () => {
          throw new DeployError('no such release');
        },
        { actor: 'x', action: 'bad' },
      ),
      /no such release/,
    );
    const trail = await auditTrail(db, environment);
    assert.deepEqual(
      trail.map(({ map_version, actor, action, remote, reason }) => ({ map_version, actor, action, remote, reason })),
      [
        { map_version: 3, actor: 'guard@host:1', action: 'rollback', remote: 'remote-title', reason: 'failure rate: canary 1.1.0 failed 10 of 100 sessions' },
        { map_version: 2, actor: 'ana@laptop', action: 'canary', remote: 'remote-title', reason: null },
        { map_version: 1, actor: 'test', action: 'import', remote: null, reason: null },
      ],
    );
    assert.ok(trail.every((entry) => entry.at instanceof Date && Date.now() - entry.at.getTime() < 60_000));
    assert.deepEqual((await auditRows()).at(-1)?.map, (await readRollout(db, environment)).rollout);
    assert.equal((await readRollout(db, environment)).version, 3);
  });

  it('announces each change on its channel once it is committed, and a refused one not at all', async () => {
    const listener = new pg.Client(database.config);
    await listener.connect();
    const heard: [string, string | undefined][] = [];
    let onHeard = () => {};
    listener.on('notification', ({ channel, payload }) => {
      heard.push([channel, payload]);
      onHeard();
    });
    try {
      await listener.query(`LISTEN ${ROLLOUT_CHANNEL}`);
      const hear = (count: number) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`heard ${heard.length} of ${count} notifications in 1 s`)), 1_000);
          onHeard = () => heard.length >= count && (clearTimeout(timer), resolve());
          onHeard();
        });
      await start();
      await hear(1);
      assert.deepEqual(heard, [[ROLLOUT_CHANNEL, `${environment} 1`]]);
      // Two contradicting changes: one lands and is heard, the refused one is not.
      const race = racing(db, 2);
      const results = await Promise.allSettled(
        [5, 50].map((percent) => updateRollout(race, environment, changing('remote-title', { canary: { version: '1.1.0', percent } }), { actor: 'x', action: 'canary', remote: 'remote-title' })),
      );
      assert.deepEqual(results.map((result) => result.status).sort(), ['fulfilled', 'rejected']);
      await hear(2);
      // Anything else would have come with the one just heard, on the same connection.
      await listener.query('SELECT 1');
      assert.deepEqual(heard, [
        [ROLLOUT_CHANNEL, `${environment} 1`],
        [ROLLOUT_CHANNEL, `${environment} 2`],
      ]);
    } finally {
      await listener.end();
    }
  });
});
