// The guard's decisions on given figures, and the map it writes for them in a real store.
// Run: node --import tsx --test control-plane/src/guard/guard.test.ts
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type pg from 'pg';
import { registerRelease } from '../store/releases.ts';
import { auditTrail, readRollout, updateRollout, type Canary, type Rollout } from '../store/rollouts.ts';
import type { Store } from '../store/database.ts';
import { testDatabase, type TestDatabase } from '../store/testDatabase.ts';
import { createFigures, MINUTE_MS, type Counted, type Figures } from '../health/figures.ts';
import { decide, runGuard, type Decision, type GuardState } from './guard.ts';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const REMOTE = 'remote-title';
const rolloutWith = (canary: Canary | null, extra: Partial<Rollout['remotes'][string]> = {}): Rollout => ({ remotes: { [REMOTE]: { stable: '1.3.0', history: [], ...(canary && { canary }), ...extra } } });

/**
 * Figures for `minutes` minutes from T0: each minute `canary` canary sessions (the first
 * `canaryFailures` failing) and `stable` stable ones (the first `stableFailures` failing), with LCPs.
 */
function figuresOf({
  minutes = 10,
  canary = 10,
  canaryFailures = 0,
  stable = 90,
  stableFailures = 0,
  canaryLcp = 2000,
  stableLcp = 2000,
  start = T0,
  figures = createFigures({ windowMinutes: 60 }),
}: {
  minutes?: number;
  canary?: number;
  canaryFailures?: number;
  stable?: number;
  stableFailures?: number;
  canaryLcp?: number;
  stableLcp?: number;
  start?: number;
  figures?: Figures;
}): Figures {
  for (let minute = 0; minute < minutes; minute += 1) {
    const reports: Counted[] = [];
    for (let i = 0; i < canary; i += 1) {
      reports.push({ remote: REMOTE, release: '1.4.0', channel: 'canary', outcome: i < canaryFailures ? 'fell-back' : 'loaded', vitals: { lcp: canaryLcp * (0.6 + (0.8 * i) / canary) } });
    }
    for (let i = 0; i < stable; i += 1) {
      reports.push({ remote: REMOTE, release: '1.3.0', channel: 'stable', outcome: i < stableFailures ? 'failed' : 'loaded', vitals: { lcp: stableLcp * (0.6 + (0.8 * i) / stable) } });
    }
    figures.record(reports, start + minute * MINUTE_MS);
  }
  return figures;
}

/** The one decision about the one canary. */
function decideOne(...args: Parameters<typeof decide>): Decision {
  const [decision] = decide(...args);
  assert.ok(decision, 'a decision about the canary');
  return decision;
}

describe('decide', () => {
  it('says nothing about remotes without a canary', () => {
    assert.deepEqual(decide(figuresOf({}), rolloutWith(null)), []);
    assert.deepEqual(decide(figuresOf({}), null), []);
  });

  it('rolls back a canary that fails more than its stable on the same minutes, naming the test and the figures', () => {
    const decision = decideOne(figuresOf({ minutes: 5, canary: 20, canaryFailures: 2, stable: 180, stableFailures: 1 }), rolloutWith({ version: '1.4.0', percent: 10 }));
    assert.equal(decision.action, 'rollback');
    assert.equal(decision.remote, REMOTE);
    assert.match(decision.reason, /^failure rate: canary 1\.4\.0 failed 10 of 100 sessions \(10\.00%\), stable 1\.3\.0 5 of 900 \(0\.56%\)/);
    assert.match(decision.reason, /SPRT log-likelihood ratio \d+\.\d\d ≥ 5\.81 \(α 0\.003, H1 canary ×6 worse\)/);
  });

  it('rolls back a wide canary against the stable’s rate over the window when the same minutes are too few to tell', () => {
    // The stable alone for 20 minutes, then a 50 % canary failing 5 % for 2 minutes: 100 sessions each.
    const figures = figuresOf({ minutes: 20, canary: 0, stable: 100, stableFailures: 0 });
    figuresOf({ figures, start: T0 + 20 * MINUTE_MS, minutes: 2, canary: 50, canaryFailures: 3, stable: 50, stableFailures: 0 });
    const decision = decideOne(figures, rolloutWith({ version: '1.4.0', percent: 50 }));
    assert.notEqual(decision.failure.verdict, 'worse');
    assert.equal(decision.action, 'rollback');
    assert.equal(decision.why, 'failure-reference');
    assert.match(decision.reason, /^failure rate: canary 1\.4\.0 failed 6 of 100 sessions \(6\.00%\) against stable 1\.3\.0's 0\.05% over the last 60 min; SPRT/);
  });

  it('does not judge a canary against the stable’s usual rate in a minute the stable failed as well: an incident', () => {
    const figures = figuresOf({ minutes: 20, canary: 0, stable: 100, stableFailures: 1 });
    // Both releases fail 20 % for two minutes.
    figuresOf({ figures, start: T0 + 20 * MINUTE_MS, minutes: 2, canary: 15, canaryFailures: 3, stable: 85, stableFailures: 17 });
    const decision = decideOne(figures, rolloutWith({ version: '1.4.0', percent: 15 }));
    assert.equal(decision.reference.skipped, 2);
    assert.equal(decision.action, 'wait');
  });

  it('leaves a canary failing as often as its stable alone', () => {
    const decision = decideOne(figuresOf({ minutes: 30, canary: 10, canaryFailures: 1, stable: 90, stableFailures: 9 }), rolloutWith({ version: '1.4.0', percent: 10 }));
    assert.equal(decision.action, 'wait');
    assert.equal(decision.failure.verdict, 'healthy');
  });

  it('waits below its floor, however bad the first sessions: fewer than 20 of them and fewer than 8 failed', () => {
    const decision = decideOne(figuresOf({ minutes: 1, canary: 15, canaryFailures: 7, stable: 15 }), rolloutWith({ version: '1.4.0', percent: 50 }));
    assert.equal(decision.action, 'wait');
    assert.match(decision.reason, /too few canary sessions yet \(15\)/);
  });

  describe('a 50 % canary whose first sessions all fall back, its stable healthy for 10 minutes before', () => {
    const started = T0 + 10 * MINUTE_MS;
    const lookedAt = { now: started + 30_000 }; // the canary's first minute is not over yet
    const rollout = rolloutWith({ version: '1.4.0', percent: 50 });
    const withFirst = (sessions: number, stableFailures = 0) => {
      const figures = figuresOf({ minutes: 10, canary: 0, stable: 100 });
      return figuresOf({ figures, start: started, minutes: 1, canary: sessions, canaryFailures: sessions, stable: sessions, stableFailures });
    };

    it('waits after 7 of them', () => {
      const decision = decideOne(withFirst(7), rollout, lookedAt);
      assert.equal(decision.action, 'wait');
      assert.match(decision.reason, /too few canary sessions yet \(7\)/);
    });

    it('is rolled back at the first look after the 8th, without waiting for the minute to end', () => {
      const decision = decideOne(withFirst(8), rollout, lookedAt);
      assert.equal(decision.action, 'rollback');
      assert.equal(decision.why, 'failure-reference');
      assert.match(decision.reason, /^failure rate: canary 1\.4\.0 failed 8 of 8 sessions \(100\.00%\) against stable 1\.3\.0's 0\.10% over the last 60 min; SPRT log-likelihood ratio 14\.33 ≥ 4\.96/);
    });

    it('is not blamed when its stable fails with it in the same minute: an outage', () => {
      const decision = decideOne(withFirst(8, 5), rollout, lookedAt);
      assert.equal(decision.action, 'wait');
      assert.equal(decision.reference.skipped, 1);
    });
  });

  it('rolls back a canary whose every load falls back after a few tens of visitors', () => {
    const decision = decideOne(figuresOf({ minutes: 1, canary: 30, canaryFailures: 30, stable: 30 }), rolloutWith({ version: '1.4.0', percent: 50 }));
    assert.equal(decision.action, 'rollback');
  });

  it('rolls back a canary whose LCP p75 is much worse, as a separate reason', () => {
    const decision = decideOne(figuresOf({ minutes: 10, canary: 30, stable: 70, canaryLcp: 3000 }), rolloutWith({ version: '1.4.0', percent: 30 }));
    assert.equal(decision.action, 'rollback');
    assert.match(decision.reason, /^LCP p75: canary 1\.4\.0 \d+ ms, stable 1\.3\.0 \d+ ms \(\+\d+%, limit \+20%\) over 300 and 700 samples/);
    assert.equal(decision.failure.verdict, 'undecided');
  });

  describe('with stages', () => {
    const figures = figuresOf({ minutes: 30, canary: 10, stable: 90 });
    const canary = { version: '1.4.0', percent: 10 };
    const stageStarts = { [REMOTE]: { version: '1.4.0', percent: 10, at: T0 } };

    it('widens a healthy canary to the next stage once it had its minimum of sessions there', () => {
      const decision = decideOne(figures, rolloutWith(canary), { stages: [10, 25, 50, 100], minStageSessions: 200, stageStarts });
      assert.equal(decision.action, 'widen');
      assert.equal(decision.to, 25);
      assert.equal(decision.stageSessions, 290);
      assert.match(decision.reason, /^healthy at 10%: 290 sessions at this stage \(min 200\).*widened to 25%$/);
    });

    it('waits while the stage has fewer sessions than its minimum', () => {
      const decision = decideOne(figures, rolloutWith(canary), { stages: [10, 25], minStageSessions: 300, stageStarts });
      assert.equal(decision.action, 'wait');
      assert.match(decision.reason, /290 of 300 sessions at 10%/);
    });

    it('does not widen without knowing when the stage began, nor past the last stage', () => {
      assert.equal(decide(figures, rolloutWith(canary), { stages: [10, 25], minStageSessions: 10 })[0]?.action, 'wait');
      const other = { [REMOTE]: { version: '1.4.0', percent: 5, at: T0 } };
      assert.equal(decide(figures, rolloutWith(canary), { stages: [10, 25], minStageSessions: 10, stageStarts: other })[0]?.action, 'wait');
      assert.equal(decide(figures, rolloutWith({ version: '1.4.0', percent: 100 }), { stages: [10, 100], minStageSessions: 10, stageStarts })[0]?.action, 'wait');
    });

    it('does not widen a canary whose failures lean to worse', () => {
      const leaning = figuresOf({ minutes: 30, canary: 10, canaryFailures: 0, stable: 90 });
      leaning.record([{ remote: REMOTE, release: '1.4.0', channel: 'canary', outcome: 'failed' }], T0 + 29 * MINUTE_MS);
      const decision = decideOne(leaning, rolloutWith(canary), { stages: [10, 25], minStageSessions: 10, stageStarts });
      assert.equal(decision.action, 'wait');
      assert.ok(decision.failure.llr > 0);
    });
  });

  describe('evidence from client networks', () => {
    /** Each minute: `canary` canary sessions failing `canaryFailures`, their failures spread over `canaryNetworks`; the stable's failures from `stableNetworks`. */
    function byNetwork({
      minutes = 10,
      canary = 10,
      canaryFailures = 0,
      canaryNetworks = ['net-1'],
      stable = 90,
      stableFailures = 0,
      stableNetworks = ['net-s'],
    }: { minutes?: number; canary?: number; canaryFailures?: number; canaryNetworks?: string[]; stable?: number; stableFailures?: number; stableNetworks?: string[] }) {
      const figures = createFigures({ windowMinutes: 60 });
      for (let minute = 0; minute < minutes; minute += 1) {
        const at = T0 + minute * MINUTE_MS;
        for (let i = 0; i < canary; i += 1) {
          const fails = i < canaryFailures;
          figures.record([{ remote: REMOTE, release: '1.4.0', channel: 'canary', outcome: fails ? 'fell-back' : 'loaded' }], at, fails ? canaryNetworks[(minute * canary + i) % canaryNetworks.length] : 'loaders');
        }
        for (let i = 0; i < stable; i += 1) {
          const fails = i < stableFailures;
          figures.record([{ remote: REMOTE, release: '1.3.0', channel: 'stable', outcome: fails ? 'failed' : 'loaded' }], at, fails ? stableNetworks[(minute * stable + i) % stableNetworks.length] : 'loaders');
        }
      }
      return figures;
    }
    const now = T0 + 10 * MINUTE_MS;

    it('does not roll back a canary whose failures, however many, come from fewer than 3 networks, and says so', () => {
      const rollout = rolloutWith({ version: '1.4.0', percent: 10 });
      for (const networks of [['net-1'], ['net-1', 'net-2']]) {
        const decision = decideOne(byNetwork({ canaryFailures: 10, canaryNetworks: networks }), rollout, { now });
        assert.equal(decision.action, 'wait');
        assert.equal(decision.why, 'few-networks');
        assert.equal(decision.evidence.failingNetworks, networks.length);
        assert.match(decision.reason, new RegExp(`come from ${networks.length} client networks? \\(a rollback needs 3\\)`));
      }
      const three = decideOne(byNetwork({ canaryFailures: 10, canaryNetworks: ['net-1', 'net-2', 'net-3'] }), rollout, { now });
      assert.equal(three.action, 'rollback');
      assert.match(three.reason, /failures from 3 networks$/);
      // One setting: a guard told to need 4 waits on the same figures.
      assert.equal(decideOne(byNetwork({ canaryFailures: 10, canaryNetworks: ['net-1', 'net-2', 'net-3'] }), rollout, { now, minFailingNetworks: 4 }).why, 'few-networks');
    });

    it('rolls back a canary failing every session from 3 networks at the first look after its 8th failure', () => {
      const decision = decideOne(byNetwork({ minutes: 1, canary: 8, canaryFailures: 8, canaryNetworks: ['net-1', 'net-2', 'net-3'] }), rolloutWith({ version: '1.4.0', percent: 10 }), {
        now: T0 + 30_000,
      });
      assert.equal(decision.action, 'rollback');
      // Unevenly spread (4, 2 and 2), it is judged, and quoted, on all 8: the heaviest network's
      // excess is set aside only where a forger could have made the failures.
      const uneven = decideOne(
        byNetwork({ minutes: 1, canary: 8, canaryFailures: 8, canaryNetworks: ['net-1', 'net-1', 'net-1', 'net-1', 'net-2', 'net-2', 'net-3', 'net-3'] }),
        rolloutWith({ version: '1.4.0', percent: 10 }),
        { now: T0 + 30_000 },
      );
      assert.equal(uneven.action, 'rollback');
      assert.match(uneven.reason, /^failure rate: canary 1\.4\.0 failed 8 of 8 sessions /);
    });

    it('rolls back a canary failing every session even where its stable served no one yet, and only such a canary', () => {
      const networks = ['net-1', 'net-2', 'net-3'];
      const rollout = rolloutWith({ version: '1.4.0', percent: 1 });
      const broken = decideOne(byNetwork({ minutes: 2, canary: 5, canaryFailures: 5, canaryNetworks: networks, stable: 0 }), rollout, { now: T0 + 2 * MINUTE_MS });
      assert.equal(broken.action, 'rollback');
      assert.match(broken.reason, /^failure rate: canary 1\.4\.0 failed 10 of 10 sessions \(100\.00%\): nearly every one, while stable 1\.3\.0 served too few sessions over the last 60 min to compare with; failures from 3 networks$/);
      // A quarter of its sessions failing tells nothing without a stable to compare with.
      const unclear = decideOne(byNetwork({ minutes: 4, canary: 8, canaryFailures: 2, canaryNetworks: networks, stable: 0 }), rollout, { now: T0 + 4 * MINUTE_MS });
      assert.equal(unclear.action, 'wait');
      // A stable failing as often over many sessions is an outage, not the canary's doing.
      const outage = decideOne(
        byNetwork({ minutes: 2, canary: 5, canaryFailures: 5, canaryNetworks: networks, stable: 30, stableFailures: 30, stableNetworks: Array.from({ length: 30 }, (_, i) => `s-${i}`) }),
        rollout,
        { now: T0 + 2 * MINUTE_MS },
      );
      assert.equal(outage.action, 'wait', outage.reason);
    });

    it('reads a stable failing from one network as one failure a minute: it neither shields the canary nor passes for an incident', () => {
      const rollout = rolloutWith({ version: '1.4.0', percent: 10 });
      const options = { canary: 10, canaryFailures: 2, canaryNetworks: ['net-1', 'net-2', 'net-3', 'net-4'], stableFailures: 30 };
      // The same failures from 30 networks are an incident that fails the stable too: the canary stays.
      assert.equal(decideOne(byNetwork({ ...options, stableNetworks: Array.from({ length: 30 }, (_, i) => `s-${i}`) }), rollout, { now }).action, 'wait');
      // From one network they are one failure a minute: the canary failing 20 % is rolled back.
      const shielded = decideOne(byNetwork({ ...options, stableNetworks: ['attacker'] }), rollout, { now });
      assert.equal(shielded.action, 'rollback');
      assert.equal(shielded.failure.stable.failures, 10);
    });
  });
});

describe('runGuard', () => {
  let database: TestDatabase;
  let db: TestDatabase['pool'];
  let environment: string;
  let runs = 0;
  before(async () => {
    database = await testDatabase();
    db = database.pool;
    // What the guard's rollbacks and widenings may point at: the releases the store lists.
    for (const version of ['1.3.0', '1.4.0']) await registerRelease(db, REMOTE, version, null);
  });
  after(() => database.close());
  // Each test in an environment of its own.
  beforeEach(() => {
    environment = `guard-${(runs += 1)}`;
  });
  const start = (rollout: Rollout) => updateRollout(db, environment, () => rollout, { actor: 'test', action: 'set' });
  const map = async () => (await readRollout(db, environment)).rollout;

  it('rolls a failing canary back in the map, with the reason in its history and the audit trail', async () => {
    await start({ ...rolloutWith({ version: '1.4.0', percent: 10 }), production: false });
    const figures = figuresOf({ minutes: 5, canary: 20, canaryFailures: 2, stable: 180, stableFailures: 1 });
    const now = T0 + 5 * MINUTE_MS;
    const lines: string[] = [];
    const { applied } = await runGuard({ db, environment, figures, now, log: (line) => lines.push(line) });
    assert.equal(applied.length, 1);
    const rollout = (await map())!;
    assert.deepEqual(rollout.remotes[REMOTE], { stable: '1.3.0', history: [], rolledBack: ['1.4.0'] });
    assert.equal(rollout.production, false);
    assert.equal(rollout.guardHistory?.length, 1);
    const entry = rollout.guardHistory![0]!;
    assert.deepEqual({ ...entry, reason: undefined }, { at: new Date(now).toISOString(), remote: REMOTE, action: 'rollback', version: '1.4.0', stable: '1.3.0', from: 10, reason: undefined });
    assert.match(entry.reason, /^failure rate: canary 1\.4\.0 failed 10 of 100/);
    assert.match(lines[0] ?? '', new RegExp(`^${environment}: rollback remote-title 1\\.4\\.0 — failure rate`));
    const [audit] = await auditTrail(db, environment, 1);
    assert.equal(audit?.action, 'rollback');
    assert.match(audit?.actor ?? '', /^guard@/);
    assert.equal(audit?.reason, entry.reason);
    // Nothing left to do on the next pass.
    assert.deepEqual((await runGuard({ db, environment, figures, now })).applied, []);
  });

  it('widens through the stages, counting each stage from when it began', async () => {
    await start(rolloutWith({ version: '1.4.0', percent: 10 }));
    const figures = createFigures({ windowMinutes: 60 });
    const state: GuardState = {};
    const options = { db, environment, figures, state, stages: [10, 25, 50], minStageSessions: 100 };
    // First pass: the guard sees the canary for the first time, so the stage starts now.
    assert.deepEqual((await runGuard({ ...options, now: T0 })).applied, []);
    figuresOf({ figures, minutes: 30, canary: 10, stable: 90 });
    const { applied } = await runGuard({ ...options, now: T0 + 29 * MINUTE_MS });
    assert.deepEqual(applied.map((decision) => [decision.action, decision.to]), [['widen', 25]]);
    const rollout = await map();
    assert.deepEqual(rollout?.remotes[REMOTE]?.canary, { version: '1.4.0', percent: 25 });
    assert.equal(rollout?.guardHistory?.[0]?.action, 'widen');
    assert.equal(rollout?.guardHistory?.[0]?.to, 25);
    // At 25 % the count starts again.
    assert.equal((await runGuard({ ...options, now: T0 + 29 * MINUTE_MS + 1000 })).applied.length, 0);
    assert.deepEqual(state.stageStarts?.[REMOTE], { version: '1.4.0', percent: 25, at: T0 + 29 * MINUTE_MS });
    // A guard started afresh reads when it widened from the map's history.
    const fresh: GuardState = {};
    await runGuard({ ...options, state: fresh, now: T0 + 40 * MINUTE_MS });
    assert.equal(fresh.stageStarts?.[REMOTE]?.at, T0 + 29 * MINUTE_MS);
  });

  /**
   * runGuard over a canary it will roll back, with a release owner widening that canary by hand
   * once the guard has decided: the owner's change is made and awaited inside the guard's next
   * store query, either the first one after deciding (its re-read of the map) or its rollback's
   * write. The order is fixed by which query the guard sends, not by timing.
   */
  async function ownerMovesWhileGuardDecides(landing: 'the re-read' | 'the write') {
    await start(rolloutWith({ version: '1.4.0', percent: 10 }));
    const figures = figuresOf({ minutes: 5, canary: 20, canaryFailures: 2, stable: 180, stableFailures: 1 });
    let decided = false;
    const deciding = {
      ...figures,
      prune: figures.prune,
      series(...args: Parameters<Figures['series']>) {
        decided = true;
        return figures.series(...args);
      },
    };
    let moved: Promise<unknown> | undefined;
    const store: Store = {
      connect: () => db.connect(),
      async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]) {
        const due = landing === 'the write' ? text.includes('netnet_guard_rollback') : decided;
        if (due) await (moved ??= start(rolloutWith({ version: '1.4.0', percent: 50 })));
        return db.query<R>(text, values);
      },
    };
    const result = await runGuard({ db: store, environment, figures: deciding, now: T0 + 5 * MINUTE_MS });
    assert.ok(moved, `the owner's change was made before ${landing}`);
    return result;
  }

  for (const landing of ['the re-read', 'the write'] as const) {
    it(`leaves the map as a release owner just changed it (their change lands before ${landing})`, async () => {
      const { decisions, applied } = await ownerMovesWhileGuardDecides(landing);
      assert.equal(decisions[0]?.action, 'rollback');
      assert.deepEqual(applied, []);
      const rollout = await map();
      assert.deepEqual(rollout?.remotes[REMOTE]?.canary, { version: '1.4.0', percent: 50 });
      assert.equal(rollout?.remotes[REMOTE]?.rolledBack, undefined);
      assert.equal(rollout?.guardHistory, undefined);
    });
  }

  it('does nothing where nothing was rolled out', async () => {
    assert.deepEqual(await runGuard({ db, environment, figures: createFigures(), now: T0 }), { leader: true, decisions: [], applied: [] });
    assert.equal((await readRollout(db, environment)).version, 0);
  });

  it('acts only while it holds the lease: a second guard changes nothing', async () => {
    await start({ ...rolloutWith({ version: '1.4.0', percent: 10 }) });
    const figures = figuresOf({ minutes: 5, canary: 20, canaryFailures: 2, stable: 180, stableFailures: 1 });
    const now = T0 + 5 * MINUTE_MS;
    // The first holds the lease (taken on a pass with nothing to do)...
    assert.equal((await runGuard({ db, environment, holder: 'first', figures: createFigures(), now: T0 })).leader, true);
    // ...so the second, seeing a canary to roll back, does nothing.
    const second = await runGuard({ db, environment, holder: 'second', figures, now });
    assert.deepEqual(second, { leader: false, decisions: [], applied: [] });
    assert.equal((await map())?.remotes[REMOTE]?.canary?.version, '1.4.0');
  });
});
