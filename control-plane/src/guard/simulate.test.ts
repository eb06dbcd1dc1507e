// The guard over 1,000 simulated canaries of each kind (control-plane/src/guard/simulate.ts), seeded:
// the rows of the simulation table in docs/release-health.md, held to the guard's targets.
// Run: node --import tsx --test control-plane/src/guard/simulate.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAILURE_TEST } from './sequential.ts';
import { knownRatePower, mulberry32, scenario, simulate, simulateCanary } from './simulate.ts';

describe('simulated canaries', () => {
  it('rolls back fewer than 1 % of 1,000 healthy canaries (0.5 % vs 0.5 %, share 10–50 %, 1,000 sessions each)', () => {
    const healthy = scenario('healthy');
    assert.ok(healthy.rolledBack < 0.01, `${healthy.rolledBack}`);
  });

  it('rolls back every one of 1,000 canaries failing 5 % vs 0.5 %, at least 90 % within 200 of their sessions', () => {
    const failing = scenario('failing');
    assert.ok(failing.rolledBack >= 0.99, `within 1,000 sessions: ${failing.rolledBack}`);
    // With the stable's rate known exactly the test could reach 96 % (below); estimating it from
    // the window and leaving incidents out cost a few points, most at a wide share.
    const [narrowest, , , widest] = failing.perBand.map((band) => band.within / band.runs);
    assert.ok(failing.within >= 0.9, `within 200 sessions: ${failing.within}`);
    assert.ok(narrowest! >= 0.92, `share 10–20 %: ${narrowest}`);
    assert.ok(widest! >= 0.87, `share 40–50 %: ${widest}`);
    assert.ok(scenario('failingAt10').within >= 0.92);
  });

  it('could reach 96 % within 200 with the stable’s rate known exactly: the limit of the test', () => {
    const best = knownRatePower({ rate: 0.05, stableRate: 0.005 });
    assert.ok(best > 0.95 && best < 0.97, String(best));
    assert.ok(knownRatePower({ rate: 0.005, stableRate: 0.005, within: 10_000 }) < 0.01);
  });

  it('does not blame healthy canaries for a 2-minute incident that fails every release, whenever in the minute it starts', () => {
    assert.ok(scenario('incident').rolledBack <= 0.005, 'on the minute');
    // At any second: within half a point of the same canaries with no incident at all.
    const anySecond = scenario('incidentAnySecond').rolledBack;
    const quiet = scenario('quiet').rolledBack;
    assert.ok(anySecond < 0.01 && anySecond <= quiet + 0.005, `${anySecond} vs ${quiet} with no incident`);
    // In the canary's first minute it has no usual rate of its own to tell an incident by.
    assert.ok(scenario('incidentOnYoung').rolledBack < 0.02);
  });

  it('rolls back a canary that fails every session at the guard’s first look after its 8th failed one', () => {
    const broken = scenario('broken');
    assert.equal(broken.rolledBack, 1);
    assert.equal(broken.late, 0);
    const firstLook = (share: number, run: number) => {
      const result = simulateCanary({ rng: mulberry32(run), share, canaryRate: 1, stableRate: 0.005, maxCanarySessions: 100 });
      assert.equal(result.rolledBack, true, `share ${share}, run ${run}`);
      assert.ok(result.seen!.failures >= FAILURE_TEST.minCanaryFailures, `share ${share}, run ${run}: ${result.seen!.failures}`);
      return (result.waited?.failures ?? 0) < FAILURE_TEST.minCanaryFailures;
    };
    for (let run = 0; run < 50; run += 1) assert.ok(firstLook(0.5, run), `share 50 %, run ${run}`);
    // At 90 % the stable serves a session every 5 s or so: its one failure in the same minute
    // (0.5 % of them) looks like an outage and holds the rollback until the minute is over.
    const atNinety = Array.from({ length: 100 }, (_, run) => firstLook(0.9, run)).filter(Boolean).length;
    assert.ok(atNinety >= 95, String(atNinety));
  });

  it('rolls back a canary failing every session whose members come from 3 networks within 15 of its sessions, 95th percentile', () => {
    const three = scenario('brokenThreeNetworks');
    assert.equal(three.rolledBack, 1);
    assert.ok(three.sessions.p95! <= 15, `95th percentile ${three.sessions.p95}`);
    assert.ok(three.within >= 0.95, `within 15: ${three.within}`);
  });

  it('lets one network forging at its cap neither roll back a healthy canary nor keep a broken one', () => {
    // Failures of a healthy canary from one network at its cap for the canary's whole life: it
    // weighs as one more member that failed (2.1 % rolled back, against 0.7 % with no forger).
    assert.ok(scenario('forgedFailures').rolledBack < 0.03);
    // `loaded` for a canary that fails every real member's session: rolled back all the same.
    const kept = scenario('forgedLoaded');
    assert.equal(kept.rolledBack, 1);
    assert.ok(kept.sessions.p95! <= 30, `95th percentile ${kept.sessions.p95}`);
  });

  it('is deterministic: the same seed gives the same figures', () => {
    const once = simulate({ seed: 5, runs: 50, canaryRate: 0.05, stableRate: 0.005, maxCanarySessions: 300 });
    const again = simulate({ seed: 5, runs: 50, canaryRate: 0.05, stableRate: 0.005, maxCanarySessions: 300 });
    assert.deepEqual(again, once);
  });
});
