// Per-minute figures over a window, and the LCP histogram they keep.
// Run: node --import tsx --test control-plane/src/health/figures.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countsSince, createFigures, MINUTE_MS, minuteOf, type Counted } from './figures.ts';
import { bucketOf, bucketValue, BUCKETS, countAbove, countOf, emptyHistogram, quantile } from './histogram.ts';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const report = (overrides: Partial<Counted> = {}): Counted => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'loaded', ...overrides });

describe('the LCP histogram', () => {
  it('puts every value from 0 to 60 s in a bucket whose value is within 2.2 %', () => {
    for (let ms = 1; ms <= 60_000; ms = ms * 1.013 + 1) {
      const index = bucketOf(ms);
      assert.ok(index >= 1 && index < BUCKETS);
      assert.ok(Math.abs(bucketValue(index) - ms) / ms < 0.022 + 1 / ms, `${ms} → ${bucketValue(index)}`);
    }
    assert.equal(bucketOf(0), 0);
    assert.equal(bucketOf(0.4), 0);
    assert.equal(bucketOf(60_000), BUCKETS - 1);
  });

  it('reads quantiles and counts above a bucket', () => {
    const histogram = emptyHistogram();
    for (let ms = 1; ms <= 100; ms += 1) histogram[bucketOf(ms * 40)] = (histogram[bucketOf(ms * 40)] ?? 0) + 1; // 40 ms … 4000 ms
    assert.equal(countOf(histogram), 100);
    const p75 = quantile(histogram, 0.75);
    assert.ok(Math.abs(p75! - 3000) / 3000 < 0.03, String(p75));
    assert.equal(quantile(emptyHistogram(), 0.75), null);
    const above = countAbove(histogram, bucketOf(3000));
    assert.ok(above >= 23 && above <= 25, String(above));
  });
});

describe('createFigures', () => {
  it('counts sessions, failures (every outcome but loaded) and LCP per remote × release × channel and minute', () => {
    const figures = createFigures();
    figures.record(
      [
        report({ vitals: { lcp: 1000 } }),
        report({ outcome: 'fell-back', vitals: { lcp: 3000 } }),
        report({ outcome: 'boundary-error' }),
        report({ channel: 'stable', release: '1.3.0' }),
      ],
      T0,
    );
    figures.record([report({ outcome: 'uncaught-error' })], T0 + MINUTE_MS);
    const canary = figures.series('remote-title', '1.4.0', 'canary')!;
    assert.equal(canary.totals.sessions, 4);
    assert.equal(canary.totals.failures, 3);
    assert.deepEqual(canary.totals.outcomes, { loaded: 1, 'fell-back': 1, failed: 0, 'boundary-error': 1, 'uncaught-error': 1 });
    assert.equal(countOf(canary.totals.lcp), 2);
    assert.deepEqual([...canary.minutes.keys()], [minuteOf(T0), minuteOf(T0) + 1]);
    assert.equal(canary.minutes.get(minuteOf(T0))!.failures, 2);
    assert.equal(figures.series('remote-title', '1.3.0', 'stable')!.totals.sessions, 1);
    assert.equal(figures.series('remote-title', '1.3.0', 'canary'), undefined);
    assert.deepEqual(countsSince(canary, minuteOf(T0) + 1), { sessions: 1, failures: 1 });
  });

  it('adds the samples of a vitals-only report without counting a session', () => {
    const figures = createFigures();
    figures.record([report()], T0);
    figures.record([{ remote: 'remote-title', release: '1.4.0', channel: 'canary', vitals: { lcp: 2000 } }], T0 + 1000);
    const canary = figures.series('remote-title', '1.4.0', 'canary')!;
    assert.equal(canary.totals.sessions, 1);
    assert.equal(canary.totals.failures, 0);
    assert.equal(countOf(canary.totals.lcp), 1);
  });

  it('keeps only the last windowMinutes minutes, totals included', () => {
    const figures = createFigures({ windowMinutes: 3 });
    for (let minute = 0; minute < 5; minute += 1) {
      figures.record([report({ outcome: minute === 0 ? 'failed' : 'loaded', vitals: { lcp: 500 } })], T0 + minute * MINUTE_MS);
    }
    const canary = figures.series('remote-title', '1.4.0', 'canary')!;
    assert.equal(canary.minutes.size, 3);
    assert.equal(canary.totals.sessions, 3);
    assert.equal(canary.totals.failures, 0);
    assert.equal(countOf(canary.totals.lcp), 3);
    figures.prune(T0 + 10 * MINUTE_MS);
    assert.equal(figures.series('remote-title', '1.4.0', 'canary'), undefined);
    assert.deepEqual(figures.list(), []);
    // Late reports for minutes that left the window are not counted.
    figures.record([report()], T0);
    assert.deepEqual(figures.list(), []);
  });

  it('refuses new series past maxSeries', () => {
    const figures = createFigures({ maxSeries: 2 });
    figures.record([report(), report({ channel: 'stable' })], T0);
    assert.equal(figures.canRecord([report()]), true);
    assert.equal(figures.canRecord([report({ release: '9.9.9' })]), false);
  });

  it('round-trips through toJSON and load', () => {
    const figures = createFigures();
    figures.record([report({ vitals: { lcp: 1234 } }), report({ outcome: 'failed', channel: 'stable', release: '1.3.0' })], T0);
    figures.record([report({ outcome: 'fell-back', vitals: { lcp: 4321, cls: 0.1 } })], T0 + 2 * MINUTE_MS);
    const copy = createFigures();
    copy.load(JSON.parse(JSON.stringify(figures.toJSON())));
    assert.deepEqual(copy.toJSON(), figures.toJSON());
    assert.deepEqual(copy.series('remote-title', '1.4.0', 'canary')!.totals, figures.series('remote-title', '1.4.0', 'canary')!.totals);
  });
});
