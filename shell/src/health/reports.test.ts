import { REPORT_LIMITS as limits, VITAL_BOUNDS } from '@netnet/rollout/reports';
import { createSessions, type ReleaseRef } from './reports';

const canary: ReleaseRef = { remote: 'remote-title', version: '1.4.0', channel: 'canary' };
const stable: ReleaseRef = { remote: 'remote-title', version: '1.3.0', channel: 'stable' };

it('reports each release once, with the outcome it settled on', () => {
  const sessions = createSessions();
  expect(sessions.settle(canary, 'fell-back')).toBe(true);
  expect(sessions.settle(stable, 'loaded')).toBe(true);
  // The same again changes nothing: one session per release and document.
  expect(sessions.settle(stable, 'loaded')).toBe(false);
  expect(sessions.settle(canary, 'fell-back')).toBe(false);
  expect(sessions.take()).toEqual([
    { remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'fell-back' },
    { remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'loaded' },
  ]);
  expect(sessions.take()).toEqual([]);
});

it('a failure replaces loaded while the report waits; loaded never replaces a failure', () => {
  const sessions = createSessions();
  sessions.settle(canary, 'loaded');
  expect(sessions.settle(canary, 'boundary-error')).toBe(true);
  // The first failure stands.
  expect(sessions.settle(canary, 'uncaught-error')).toBe(false);
  expect(sessions.settle(canary, 'loaded')).toBe(false);
  expect(sessions.take()).toEqual([{ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'boundary-error' }]);
});

it('a failure after loaded went out is one more session, sent once', () => {
  const sessions = createSessions();
  sessions.settle(canary, 'loaded');
  expect(sessions.take()).toHaveLength(1);
  expect(sessions.settle(canary, 'uncaught-error')).toBe(true);
  expect(sessions.settle(canary, 'boundary-error')).toBe(false);
  expect(sessions.take()).toEqual([{ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'uncaught-error' }]);
  expect(sessions.settle(canary, 'uncaught-error')).toBe(false);
  expect(sessions.take()).toEqual([]);
});

it('a release whose failed session went out sends no more failures', () => {
  const sessions = createSessions();
  sessions.settle(stable, 'failed');
  sessions.take();
  expect(sessions.settle(stable, 'boundary-error')).toBe(false);
  expect(sessions.settle(stable, 'loaded')).toBe(false);
  expect(sessions.take()).toEqual([]);
});

it('the same version on another channel is another release', () => {
  const sessions = createSessions();
  sessions.settle({ ...canary, channel: 'override' }, 'loaded');
  sessions.settle(canary, 'loaded');
  expect(sessions.take().map((report) => report.channel)).toEqual(['override', 'canary']);
});

it('vitals are samples without a session; those waiting together go out in one report', () => {
  const sessions = createSessions();
  expect(sessions.addVitals(stable, { lcp: 1800 })).toBe(true);
  expect(sessions.addVitals(stable, { cls: 0.02 })).toBe(true);
  expect(sessions.take()).toEqual([{ remote: 'remote-title', release: '1.3.0', channel: 'stable', vitals: { lcp: 1800, cls: 0.02 } }]);
  sessions.addVitals(stable, { inp: 120 });
  expect(sessions.take()).toEqual([{ remote: 'remote-title', release: '1.3.0', channel: 'stable', vitals: { inp: 120 } }]);
});

it('leaves out what the collector would refuse the whole batch for', () => {
  const sessions = createSessions();
  expect(sessions.addVitals(stable, { lcp: 60_001, cls: -1, inp: Number.NaN })).toBe(false);
  expect(sessions.addVitals(stable, { lcp: 2500, cls: 11 })).toBe(true);
  expect(sessions.settle({ ...canary, version: `1.0.0-${'a'.repeat(60)}` }, 'loaded')).toBe(false);
  expect(sessions.take()).toEqual([{ remote: 'remote-title', release: '1.3.0', channel: 'stable', vitals: { lcp: 2500 } }]);
});

it('takes its bounds from the list the collector reads: the highest values are kept, one past them is not', () => {
  const sessions = createSessions();
  const lcp = VITAL_BOUNDS.lcp[1];
  const cls = VITAL_BOUNDS.cls[1];
  expect(sessions.addVitals(stable, { lcp: lcp + 1, cls: cls + 1 })).toBe(false);
  expect(sessions.addVitals(stable, { lcp, cls })).toBe(true);
  const longest = `1.0.0-${'a'.repeat(limits.maxVersionLength - 6)}`;
  expect(sessions.settle({ ...canary, version: `${longest}a` }, 'loaded')).toBe(false);
  expect(sessions.settle({ ...canary, version: longest }, 'loaded')).toBe(true);
  expect(sessions.take()).toEqual([
    { remote: 'remote-title', release: longest, channel: 'canary', outcome: 'loaded' },
    { remote: 'remote-title', release: '1.3.0', channel: 'stable', vitals: { lcp, cls } },
  ]);
});
