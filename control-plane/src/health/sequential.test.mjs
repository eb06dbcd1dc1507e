// The guard's statistics. The rates over many simulated canaries are in simulate.test.mjs.
// Run: node --test control-plane/src/health/sequential.test.mjs
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketOf, emptyHistogram } from './histogram.mjs';
import { boundaries, FAILURE_TEST, failureTest, lcpTest, referenceTest, stratumLlr } from './sequential.mjs';
import { mulberry32 } from './simulate.mjs';

const stratum = (canarySessions, canaryFailures, stableSessions, stableFailures) => ({ canarySessions, canaryFailures, stableSessions, stableFailures });

const choose = (n, k) => {
  let value = 1;
  for (let i = 1; i <= k; i += 1) value = (value * (n - k + i)) / i;
  return value;
};

describe('the failure-rate SPRT', () => {
  it('has Wald’s lower boundary and 1/α as its upper one', () => {
    const { upper, lower } = boundaries(FAILURE_TEST);
    assert.equal(upper, Math.log(1 / 0.003));
    assert.equal(lower, Math.log(0.05 / 0.997));
    assert.deepEqual({ ...FAILURE_TEST }, { alpha: 0.003, beta: 0.05, ratio: 6, minCanarySessions: 20 });
  });

  it('is a fair bet under H0: the likelihood ratio of a stratum averages exactly 1 when the canary’s share of failures is its share of sessions', () => {
    for (const [canary, stable, failures] of [[10, 90, 5], [50, 50, 12], [3, 40, 30]]) {
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

  it('waits for its minimum of canary sessions', () => {
    const result = failureTest([stratum(19, 19, 19, 0)]);
    assert.equal(result.verdict, 'too-few');
    assert.ok(result.llr > result.upper);
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
  const minute = (canarySessions, canaryFailures, stableSessions, stableFailures) => ({ canarySessions, canaryFailures, stableSessions, stableFailures });

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
});

describe('the LCP test', () => {
  const lognormals = (rng, count, median, sigma = 0.5) => {
    const histogram = emptyHistogram();
    for (let i = 0; i < count; i += 1) {
      const z = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
      histogram[bucketOf(Math.min(60_000, median * Math.exp(sigma * z)))] += 1;
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
    assert.ok(slow.canaryP75 > slow.stableP75 * 1.4, `${slow.canaryP75} vs ${slow.stableP75}`);
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
