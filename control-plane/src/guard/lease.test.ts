// Contract of the guard's lease in a real PostgreSQL (./testDatabase.ts): one holder at a time,
// a fence that stays while its holder renews and grows when the lease changes hands, writes that
// land only under the fence they carry, and two guards racing over the same canaries acting once
// per verdict.
// Run: node --import tsx --test control-plane/src/guard/lease.test.ts
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, beforeEach, describe, it } from 'node:test';
import type pg from 'pg';
import { createFigures, MINUTE_MS, type Counted, type Figures } from '../health/figures.ts';
import { runGuard } from './guard.ts';
import type { Store } from '../store/database.ts';
import { acquireLease, leaseHolder, releaseLease, type Lease } from '../store/lease.ts';
import { registerRelease } from '../store/releases.ts';
import { LeaseLost, readRollout, updateRollout, type Rollout } from '../store/rollouts.ts';
import { testDatabase, type TestDatabase } from '../store/testDatabase.ts';

const LONG = 60_000;
const REMOTE = 'remote-title';
const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const withCanary = (percent: number): Rollout => ({ remotes: { [REMOTE]: { stable: '1.3.0', history: [], canary: { version: '1.4.0', percent } } } });

/** Figures of `minutes` minutes from T0: per minute 20 canary sessions (`canaryFailures` failing) and 180 stable ones (1 failing). */
function figuresOf({ minutes, canaryFailures }: { minutes: number; canaryFailures: number }): Figures {
  const figures = createFigures({ windowMinutes: 60 });
  for (let minute = 0; minute < minutes; minute += 1) {
    const reports: Counted[] = [];
    for (let i = 0; i < 20; i += 1) reports.push({ remote: REMOTE, release: '1.4.0', channel: 'canary', outcome: i < canaryFailures ? 'fell-back' : 'loaded' });
    for (let i = 0; i < 180; i += 1) reports.push({ remote: REMOTE, release: '1.3.0', channel: 'stable', outcome: i === 0 ? 'failed' : 'loaded' });
    figures.record(reports, T0 + minute * MINUTE_MS);
  }
  return figures;
}

const MAP_READ = /^SELECT version, map FROM rollouts\b/;

/** The pool, with `hook()` awaited before the `nth` map read is answered (the read itself is done). */
function pausing(pool: pg.Pool, nth: number, hook: () => Promise<void>): Store {
  let reads = 0;
  return {
    connect: () => pool.connect(),
    async query(text: string, values?: unknown[]) {
      const result = await pool.query(text, values);
      if (MAP_READ.test(text) && (reads += 1) === nth) await hook();
      return result;
    },
  };
}

describe('guard lease', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let db: TestDatabase['pool'];
  let environment: string;
  let runs = 0;
  before(async () => {
    database = await testDatabase();
    db = database.pool;
    // The guard's widening checks that the version it widens is published: registered in the store.
    for (const version of ['1.3.0', '1.4.0']) await registerRelease(db, REMOTE, version, null);
  });
  after(() => database.close());
  beforeEach(() => {
    environment = `lease-${(runs += 1)}`;
  });
  /** The lease lapses now, as when its holder stops renewing it (paused, cut off). */
  const lapse = (on = environment) => db.query("UPDATE guard_leases SET expires_at = now() - interval '1 second' WHERE environment = $1", [on]);
  const start = (rollout: Rollout, on = environment) => updateRollout(db, on, () => rollout, { actor: 'test', action: 'import' });
  const guardWrite = (lease: Lease, percent: number) =>
    updateRollout(db, environment, (latest) => ({ ...latest, remotes: { [REMOTE]: { ...latest?.remotes[REMOTE], canary: { version: '1.4.0', percent } } } }), {
      actor: `guard@${lease.holder}`,
      action: 'widen',
      remote: REMOTE,
      reason: 'test',
      lease,
    });

  it('has one holder at a time; renewing keeps the fence, taking over a lapsed lease bumps it', async () => {
    const first = await acquireLease(db, environment, 'a', LONG);
    assert.deepEqual(first, { holder: 'a', fence: 1 });
    assert.deepEqual(await acquireLease(db, environment, 'a', LONG), { holder: 'a', fence: 1 });
    assert.equal(await acquireLease(db, environment, 'b', LONG), null);
    assert.equal((await leaseHolder(db, environment))?.holder, 'a');
    // A lease that lapses for real, not only by the test's hand.
    assert.deepEqual(await acquireLease(db, environment, 'a', 50), { holder: 'a', fence: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await leaseHolder(db, environment), null);
    assert.deepEqual(await acquireLease(db, environment, 'b', LONG), { holder: 'b', fence: 2 });
    assert.equal(await acquireLease(db, environment, 'a', LONG), null);
    // Given up: the next takes it at once, with a new fence.
    await releaseLease(db, environment, 'b');
    assert.deepEqual(await acquireLease(db, environment, 'a', LONG), { holder: 'a', fence: 3 });
    // A holder whose own lease lapsed gets a new fence too: writes it began before are void.
    await lapse();
    assert.deepEqual(await acquireLease(db, environment, 'a', LONG), { holder: 'a', fence: 4 });
    // Each environment has its own.
    assert.deepEqual(await acquireLease(db, `${environment}-other`, 'b', LONG), { holder: 'b', fence: 1 });
  });

  it('lets no write through under a lease that lapsed and was taken by another: LeaseLost, the map unchanged', async () => {
    const { version } = await start(withCanary(10));
    const old = await acquireLease(db, environment, 'a', LONG);
    await lapse();
    const taken = await acquireLease(db, environment, 'b', LONG);
    assert.equal(taken?.fence, old!.fence + 1);
    await assert.rejects(guardWrite(old!, 50), LeaseLost);
    assert.equal((await readRollout(db, environment)).version, version);
    assert.equal((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit WHERE environment = $1', [environment])).rows[0]?.n, 1);
    // The holder's own write lands.
    assert.equal((await guardWrite(taken, 25)).version, version + 1);
    // ...and stops landing the moment its lease lapses, whoever holds it next.
    await lapse();
    await assert.rejects(guardWrite(taken, 50), LeaseLost);
    assert.deepEqual((await readRollout(db, environment)).rollout?.remotes[REMOTE]?.canary, { version: '1.4.0', percent: 25 });
  });

  it('checks the fence in the write itself: a lease lost between the guard’s read and its write stops the write', async () => {
    await start(withCanary(10));
    const lease = await acquireLease(db, environment, 'a', LONG);
    const paused = pausing(db, 1, async () => {
      await lapse();
      await acquireLease(db, environment, 'b', LONG);
    });
    const write = updateRollout(paused, environment, (latest) => ({ ...latest, remotes: { [REMOTE]: { stable: '1.3.0', history: [], rolledBack: ['1.4.0'] } } }), {
      actor: 'guard@a',
      action: 'rollback',
      remote: REMOTE,
      lease: lease!,
    });
    await assert.rejects(write, LeaseLost);
    assert.deepEqual((await readRollout(db, environment)).rollout, withCanary(10));
  });

  // Issue 22's "two guards racing over the same canaries": every round a fresh environment with a
  // canary the figures condemn (or clear for widening), and two guards in different instances
  // passing over it at once, in the interleavings a real pair meets.
  it('never lets two racing guards act twice on one verdict (1,000 rounds)', { timeout: 300_000 }, async () => {
    const failing = figuresOf({ minutes: 5, canaryFailures: 2 });
    const healthy = figuresOf({ minutes: 30, canaryFailures: 0 });
    const verdicts: Record<'rollback' | 'widen', { figures: Figures; now: number; map: (rollout: Rollout) => boolean }> = {
      rollback: { figures: failing, now: T0 + 5 * MINUTE_MS, map: (rollout) => rollout.remotes[REMOTE]?.rolledBack?.[0] === '1.4.0' && !rollout.remotes[REMOTE]?.canary },
      widen: { figures: healthy, now: T0 + 30 * MINUTE_MS, map: (rollout) => rollout.remotes[REMOTE]?.canary?.percent === 25 },
    };
    type Pass = Awaited<ReturnType<typeof runGuard>>;
    type Guard = (through: Store, leaseMs?: number) => Promise<Pass>;
    const interleavings: Record<string, (a: Guard, b: Guard, on: string) => Promise<(Pass | undefined)[]>> = {
      // Both start at once on a free lease.
      together: (a, b) => Promise.all([a(db), b(db)]),
      // Both start at once on the lease of a third guard that went away.
      takeover: async (a, b, on) => {
        await acquireLease(db, on, 'gone', LONG);
        await lapse(on);
        return Promise.all([a(db), b(db)]);
      },
      // A decides, then stalls before its write (the map it read in hand) while its lease lapses
      // and B takes over and acts; then A goes on.
      stalled: async (a, b, on) => {
        let second: Pass | undefined;
        const first = await a(
          pausing(db, 2, async () => {
            await lapse(on);
            second = await b(db);
          }),
        );
        return [first, second];
      },
      // As `stalled`, but B's pass runs alongside A's resumed write.
      overlapping: async (a, b, on) => {
        let second: Promise<Pass> | undefined;
        const first = await a(
          pausing(db, 2, async () => {
            await lapse(on);
            second = b(db);
          }),
        );
        return [first, await second];
      },
      // A stalls while its lease lapses and B merely takes it; A's write must not land, B's next pass acts.
      fenced: async (a, b, on) => {
        const first = await a(
          pausing(db, 2, async () => {
            await lapse(on);
            await acquireLease(db, on, 'b', LONG);
          }),
        );
        return [first, await b(db)];
      },
      // Leases of 2 to 30 ms and passes at random moments: a lease lapses, between passes or
      // in the middle of one, and changes hands wherever the machine's timing puts it. Passes go
      // on until one acts, then once more each.
      lapsing: async (a, b) => {
        const results: Pass[] = [];
        const passes = (guard: Guard) => async () => {
          await sleep(Math.random() * 30);
          results.push(await guard(db, 2 + Math.random() * 28));
        };
        const acted = () => results.some((result) => result.applied.length > 0);
        for (let pass = 0; pass < 200 && !acted(); pass += 1) await Promise.all([passes(a)(), passes(b)()]);
        await Promise.all([passes(a)(), passes(b)()]);
        return results;
      },
    };
    // Where A's lease lapsed before its write: whatever lands must be B's.
    const deposed = new Set(['stalled', 'overlapping', 'fenced']);
    const names = Object.keys(interleavings);
    const tally: Record<string, number> = {};
    const rounds = 1_000;
    // A few rounds at a time, each in its own environment: the database sees guards of several
    // environments at once, as it does with several instances.
    const round = async (index: number) => {
      const on = `race-${index}`;
      const action = index % 2 ? 'widen' : 'rollback';
      const name = names[Math.floor(index / 2) % names.length]!;
      const verdict = verdicts[action];
      await start(withCanary(10), on);
      const guard = (holder: string): Guard => {
        // Each guard's own memory, kept between its passes: this stage began long enough ago to be judged.
        const state = { stageStarts: { [REMOTE]: { version: '1.4.0', percent: 10, at: T0 - MINUTE_MS } } };
        return (through, leaseMs = LONG) =>
          runGuard({ db: through, environment: on, holder, leaseMs, figures: verdict.figures, now: verdict.now, state, stages: [10, 25, 50], minStageSessions: 100 });
      };
      const results = await interleavings[name]!(guard('a'), guard('b'), on);
      const applied = results.flatMap((result) => result?.applied ?? []);
      const { version, rollout } = await readRollout(db, on);
      const guardEntries = (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit WHERE environment = $1 AND actor LIKE 'guard@%'", [on])).rows[0]?.n;
      const where = `round ${index} (${name}, ${action})`;
      assert.equal(applied.length, 1, `${where}: applied ${applied.length}`);
      if (deposed.has(name)) assert.deepEqual(results[0]?.applied, [], `${where}: the guard whose lease lapsed acted`);
      assert.equal(applied[0]?.action, action, where);
      assert.equal(version, 2, `${where}: map version`);
      assert.equal(guardEntries, 1, `${where}: guard audit entries`);
      assert.equal(rollout?.guardHistory?.length, 1, where);
      assert.ok(rollout && verdict.map(rollout), `${where}: ${JSON.stringify(rollout?.remotes[REMOTE])}`);
      tally[name] = (tally[name] ?? 0) + 1;
    };
    const atOnce = 4;
    for (let next = 0; next < rounds; next += atOnce) {
      await Promise.all(Array.from({ length: Math.min(atOnce, rounds - next) }, (_, i) => round(next + i)));
    }
    assert.equal(Object.values(tally).reduce((sum, n) => sum + n, 0), rounds);
    assert.deepEqual(Object.keys(tally).sort(), [...names].sort());
  });
});
