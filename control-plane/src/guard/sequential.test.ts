// The guard's statistics. The rates over many simulated canaries are in simulate.test.ts.
// Run: node --import tsx --test control-plane/src/guard/sequential.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketOf, emptyHistogram } from '../health/histogram.ts';
import { boundaries, enoughEvidence, FAILURE_TEST, failureTest, lcpTest, referenceTest, stratumLlr } from './sequential.ts';
import { mulberry32 } from './simulate.ts';

const stratum = (canarySessions: number, canaryFailures: number, stableSessions: number, stableFailures: number) => ({ canarySessions, canaryFailures, stableSessions, stableFailures });

const choose = (n: number, k: number) => {
  let value = 1;
  for (let i = 1; i <= k; i += 1) value = (value * (n - k + i)) / i;
  return value;
};

describe('the failure-rate SPRT', () => {
  it('has Wald’s lower boundary and 1/α as its upper one', () => {
    const { upper, lower } = boundaries(FAILURE_TEST);
    assert.equal(upper, Math.log(1 / 0.003));
    assert.equal(lower, Math.log(0.05 / 0.997));
    assert.deepEqual({ ...FAILURE_TEST }, { alpha: 0.003, beta: 0.05, ratio: 6, minCanarySessions: 20, minCanaryFailures: 8 });
  });

  it('is a fair bet under H0: the likelihood ratio of a stratum averages exactly 1 when the canary’s share of failures is its share of sessions', () => {
    for (const [canary, stable, failures] of [[10, 90, 5], [50, 50, 12], [3, 40, 30]] as const) {
      const p0 = canary / (canary + stable);
      let mean = 0;
      for (let x = 0; x <= failures; x += 1) {
        const llr = stratumLlr(stratum(canary, x, stable, failures - x), 6);
        mean += choose(failures, x) * p0 ** x * (1 - p0) ** (failures - x) * Math.exp(llr);
      }
      assert.ok(Math.abs(mean - 1) < 1e-9, `${canary}/${stable}/${failures}: ${mean}`);
    }
  });

  it('learns nothing from a minute where either release served no one, or nobody failed', () => {
    assert.equal(stratumLlr(stratum(0, 0, 50, 3), 6), 0);
    assert.equal(stratumLlr(stratum(20, 4, 0, 0), 6), 0);
    assert.equal(stratumLlr(stratum(20, 0, 80, 0), 6), 0);
  });

  it('decides from 20 canary sessions, or from 8 failed ones: the floor scales with the evidence', () => {
    const floor = (sessions: number, failures: number) => enoughEvidence({ sessions, failures });
    assert.equal(floor(7, 7), false);
    assert.equal(floor(8, 8), true);
    assert.equal(floor(19, 7), false);
    assert.equal(floor(19, 8), true);
    assert.equal(floor(19, 0), false);
    assert.equal(floor(20, 0), true);
    assert.equal(enoughEvidence({ sessions: 8, failures: 8 }, { minCanaryFailures: 9 }), false);
  });

  it('waits below the floor however bad the first sessions, and not past it', () => {
    // A 10 % canary whose every session fails: the same-minute test is far past its boundary at 7.
    const seven = failureTest([stratum(7, 7, 63, 0)]);
    assert.equal(seven.verdict, 'too-few');
    assert.ok(seven.llr > seven.upper);
    assert.equal(failureTest([stratum(8, 8, 72, 0)]).verdict, 'worse');
    assert.equal(failureTest([stratum(19, 7, 171, 0)]).verdict, 'too-few');
  });

  it('calls a canary failing 10 times as often worse, and one failing as often healthy', () => {
    const worse = failureTest([stratum(100, 5, 900, 4), stratum(100, 5, 900, 5)]);
    assert.equal(worse.verdict, 'worse');
    assert.deepEqual(worse.canary, { sessions: 200, failures: 10 });
    assert.deepEqual(worse.stable, { sessions: 1800, failures: 9 });
    const same = failureTest(Array.from({ length: 10 }, () => stratum(100, 1, 900, 9)));
    assert.equal(same.verdict, 'healthy');
    const unclear = failureTest([stratum(100, 1, 900, 9)]);
    assert.equal(unclear.verdict, 'undecided');
  });

  it('compares minute by minute: a burst of failures for everyone does not make a small canary look worse', () => {
    // Minute 1: the canary at 10 % before an incident; minute 2: an incident fails half of all loads.
    const strata = [stratum(10, 0, 90, 0), stratum(10, 5, 90, 45)];
    assert.ok(failureTest(strata).llr < 0);
    // Pooled over both minutes it would be the same here; what matters is that a change of share
    // does not: the canary widened to 50 % during the incident.
    const widened = [stratum(100, 0, 900, 0), stratum(50, 25, 50, 25)];
    assert.ok(failureTest(widened).llr < 0);
    const pooledShare = 150 / 1100;
    const p1 = (6 * pooledShare) / (6 * pooledShare + 1 - pooledShare);
    const pooledLlr = 25 * Math.log(p1 / pooledShare) + 25 * Math.log((1 - p1) / (1 - pooledShare));
    assert.ok(pooledLlr > boundaries(FAILURE_TEST).upper, 'pooling would have rolled it back');
  });
});

describe('the failure-rate test against the stable’s window', () => {
  const minute = (canarySessions: number, canaryFailures: number, stableSessions: number, stableFailures: number) => ({ canarySessions, canaryFailures, stableSessions, stableFailures });

  it('gains ln(k) per canary failure and loses a little per success, against the stable’s rate with one failure and one success added', () => {
    const result = referenceTest([minute(100, 2, 100, 0)], { sessions: 998, failures: 4 });
    assert.equal(result.rate, 5 / 1000);
    const expected = 2 * Math.log(6) + 98 * Math.log((1 - 0.03) / (1 - 0.005));
    assert.ok(Math.abs(result.llr - expected) < 1e-9, `${result.llr} vs ${expected}`);
    assert.equal(result.verdict, 'undecided');
  });

  it('calls a canary failing ten times the stable’s rate worse, and one failing as often not', () => {
    assert.equal(referenceTest([minute(200, 10, 200, 1)], { sessions: 5000, failures: 25 }).verdict, 'worse');
    assert.equal(referenceTest([minute(200, 1, 200, 1)], { sessions: 5000, failures: 25 }).verdict, 'undecided');
    assert.ok(referenceTest([minute(200, 1, 200, 1)], { sessions: 5000, failures: 25 }).llr < 0);
  });

  it('leaves out a minute in which the stable itself failed far beyond its rate', () => {
    const result = referenceTest([minute(100, 20, 100, 20), minute(100, 0, 100, 0)], { sessions: 5000, failures: 45 });
    assert.equal(result.skipped, 1);
    assert.ok(result.llr < 0);
  });

  // Minutes with their number: five quiet ones, then the one under test.
  const at = (number: number, ...counts: [number, number, number, number]) => ({ minute: number, ...minute(...counts) });
  const quiet = Array.from({ length: 5 }, (_, number) => at(number, 40, 0, 60, 0));
  const stable = { sessions: 998, failures: 4 }; // a rate of 5 in 1,000 with the one and one added
  const perSuccess = Math.log((1 - 0.03) / (1 - 0.005));

  it('leaves out a minute in which the stable failed a little more than usual and the canary far more than its own usual: an incident starting within the minute', () => {
    const result = referenceTest([...quiet, at(5, 40, 8, 60, 1)], stable);
    assert.equal(result.skipped, 1);
    assert.ok(Math.abs(result.llr - 200 * perSuccess) < 1e-9, String(result.llr));
    // The same minute after a stable that failed not at all in it: the canary's own fault.
    assert.equal(referenceTest([...quiet, at(5, 40, 8, 60, 0)], stable).verdict, 'worse');
  });

  it('keeps every minute of a canary that fails as it always has, whatever its stable did in them', () => {
    const bad = Array.from({ length: 4 }, (_, number) => at(number, 40, 2, 60, number % 2));
    const result = referenceTest(bad, stable);
    assert.equal(result.skipped, 0);
    assert.ok(Math.abs(result.llr - (8 * Math.log(6) + 152 * perSuccess)) < 1e-9, String(result.llr));
    assert.equal(result.verdict, 'worse');
  });

  it('counts the minute not yet over only when neither release fails in it beyond its usual', () => {
    const steady = referenceTest([...quiet, at(5, 10, 0, 15, 0)], stable, { current: 5 });
    assert.equal(steady.skipped, 0);
    assert.ok(Math.abs(steady.llr - 210 * perSuccess) < 1e-9);
    // The first seconds of an incident: the canary's first failures, the stable's not yet.
    const starting = referenceTest([...quiet, at(5, 6, 3, 5, 0)], stable, { current: 5 });
    assert.equal(starting.skipped, 1);
    assert.ok(Math.abs(starting.llr - 200 * perSuccess) < 1e-9);
    // Its stable failing once in a few sessions is enough to wait for the minute to end.
    assert.equal(referenceTest([...quiet, at(5, 10, 0, 5, 1)], stable, { current: 5 }).skipped, 1);
  });

  it('counts at once the minute not yet over of a canary that failed 8 of its first 8 sessions, unless its stable fails with it', () => {
    const broken = referenceTest([at(0, 8, 8, 8, 0)], stable, { current: 0 });
    assert.equal(broken.failsEverySession, true);
    assert.ok(Math.abs(broken.llr - 8 * Math.log(6)) < 1e-9);
    assert.equal(broken.verdict, 'worse');
    // 7 of 7 is under the floor: a canary with no history of its own waits for its minute to end.
    const seven = referenceTest([at(0, 7, 7, 8, 0)], stable, { current: 0 });
    assert.equal(seven.failsEverySession, false);
    assert.equal(seven.skipped, 1);
    // 8 of 10 is nearly every session; 8 of 11 is not.
    assert.equal(referenceTest([at(0, 10, 8, 8, 0)], stable, { current: 0 }).failsEverySession, true);
    assert.equal(referenceTest([at(0, 11, 8, 8, 0)], stable, { current: 0 }).failsEverySession, false);
    // An outage failing everyone: the stable failed 5 of its 8 in the same minute.
    const outage = referenceTest([at(0, 8, 8, 8, 5)], stable, { current: 0 });
    assert.equal(outage.skipped, 1);
    assert.equal(outage.verdict, 'undecided');
  });
});

describe('the LCP test', () => {
  const lognormals = (rng: () => number, count: number, median: number, sigma = 0.5) => {
    const histogram = emptyHistogram();
    for (let i = 0; i < count; i += 1) {
      const z = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
      const bucket = bucketOf(Math.min(60_000, median * Math.exp(sigma * z)));
      histogram[bucket] = (histogram[bucket] ?? 0) + 1;
    }
    return histogram;
  };

  it('needs a minimum of samples on both sides', () => {
    const rng = mulberry32(1);
    assert.equal(lcpTest({ canary: lognormals(rng, 99, 6000), stable: lognormals(rng, 1000, 2000) }).verdict, 'too-few');
    assert.equal(lcpTest({ canary: lognormals(rng, 1000, 6000), stable: lognormals(rng, 99, 2000) }).verdict, 'too-few');
  });

  it('calls a canary 50 % slower worse, and one as fast not worse', () => {
    const rng = mulberry32(2);
    const slow = lcpTest({ canary: lognormals(rng, 300, 3000), stable: lognormals(rng, 2000, 2000) });
    assert.equal(slow.verdict, 'worse');
    assert.ok(slow.canaryP75! > slow.stableP75! * 1.4, `${slow.canaryP75} vs ${slow.stableP75}`);
    const same = lcpTest({ canary: lognormals(rng, 300, 2000), stable: lognormals(rng, 2000, 2000) });
    assert.equal(same.verdict, 'not-worse');
  });

  it('does not call a real but small slowdown (under worseBy) worse', () => {
    const rng = mulberry32(3);
    const result = lcpTest({ canary: lognormals(rng, 5000, 2200, 0.3), stable: lognormals(rng, 5000, 2000, 0.3) });
    assert.ok(result.llr >= result.upper, 'the difference is real');
    assert.equal(result.verdict, 'not-worse');
  });
});
