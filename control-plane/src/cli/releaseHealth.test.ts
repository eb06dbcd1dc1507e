// Release health in the rollout command (control-plane/bin/rollout.ts), from the figures in a real
// PostgreSQL (./testing.ts): what `status` shows of each release's sessions, failures and LCP and
// of the guard's verdict and history; the guard's passes (--once, --stages, and running until
// SIGTERM) rolling a canary back or widening it; and what is refused: figures that cannot be read,
// guard flags it cannot take.
// Run: node --import tsx --test control-plane/src/cli/releaseHealth.test.ts
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Counted } from '../health/figures.ts';
import { commandFixtures, type CliHarness } from './testing.ts';

const { harness, cli, rollout, publish } = commandFixtures();

describe('release health', () => {
  const times = (count: number, make: (index: number) => Counted) => Array.from({ length: count }, (_, index) => make(index));
  const reportsArrived = (...args: Parameters<CliHarness['reportsArrived']>) => harness.reportsArrived(...args);

  beforeEach(() => {
    for (const [remote, version] of [['remote-title', '1.3.0'], ['remote-title', '1.4.0'], ['remote-search', '1.0.0'], ['remote-search', '1.1.0']] as const) {
      assert.equal(publish(remote, version).code, 0);
    }
  });

  it('status gives each release’s sessions, failures, rate and LCP p75, the guard’s verdict and its history', async () => {
    await harness.setRollout({
      remotes: {
        'remote-title': { stable: '1.3.0', canary: { version: '1.4.0', percent: 10 }, history: [] },
        'remote-search': { stable: '1.1.0', history: ['1.0.0'], rolledBack: [] },
      },
      guardHistory: [
        { at: '2026-11-20T09:15:00.000Z', remote: 'remote-title', action: 'rollback', version: '1.2.0', stable: '1.3.0', from: 25, reason: 'failure rate: canary 1.2.0 failed 9 of 30 sessions' },
        { at: '2026-11-20T08:00:00.000Z', remote: 'remote-search', action: 'widen', version: '1.1.0', stable: '1.0.0', from: 10, to: 25, reason: 'healthy at 10%' },
      ],
    });
    const now = Date.now();
    // Stable: 40 sessions, 2 of them failed, LCPs 1000, 1050, … 2950 ms (p75: the 30th, 2450 ms).
    await reportsArrived(times(40, (i) => ({ remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: i < 2 ? 'failed' : 'loaded', vitals: { lcp: 1000 + 50 * i } })), now - 120_000);
    // Canary: 12 sessions, 3 fell back, no LCP yet.
    await reportsArrived(times(12, (i) => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: i < 3 ? 'fell-back' : 'loaded' })), now);
    // Older than the hour: not counted.
    await reportsArrived(times(5, () => ({ remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'failed' })), now - 2 * 60 * 60_000);
    // Another environment's: not counted either.
    await reportsArrived(times(5, () => ({ remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'failed' })), now, 'staging');

    const { code, out } = cli('rollout', 'status');
    assert.equal(code, 0);
    assert.match(out, /release health over the last 60 min \(read \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)/);
    const lines = out.split('\n');
    const line = (index: number) => lines[index] ?? '';
    const title = lines.findIndex((text) => text.startsWith('remote-title'));
    assert.match(line(title + 1), /^ {2}release\s+channel\s+sessions\s+failures\s+rate\s+fell back\s+LCP p75\s+LCP samples$/);
    const stable = /^ {2}1\.3\.0\s+stable\s+40\s+2\s+5\.00%\s+0\s+(\d+) ms\s+40$/.exec(line(title + 2));
    assert.ok(stable, line(title + 2));
    // Read from a histogram whose buckets are 4.4 % wide.
    assert.ok(Math.abs(Number(stable[1]) - 2450) / 2450 < 0.025, stable[1]);
    assert.match(line(title + 3), /^ {2}1\.4\.0\s+canary\s+12\s+3\s+25\.00%\s+3\s+–\s+–$/);
    // The columns line up under their headings.
    assert.equal(line(title + 2).indexOf('40') + 2, line(title + 1).indexOf('sessions') + 'sessions'.length);
    assert.equal(line(title + 4), '  guard verdict: waiting: too few canary sessions yet (12)');
    // What the verdict stands on: the sessions and the networks they came from.
    assert.match(line(title + 5), /^ {2}guard evidence: 12 canary sessions, 3 failed from 3 networks \(a rollback on failures needs 3;/);
    assert.match(line(title + 6), /^ {4}the \d+ of the network that sent the most, the tests count \d+, as many as the next\)$/);
    assert.equal(line(title + 7), '  guard history (latest first):');
    assert.equal(line(title + 8), '    2026-11-20 09:15:00 UTC  rollback 1.2.0 at 25% (stable 1.3.0)');
    assert.equal(line(title + 9), '      failure rate: canary 1.2.0 failed 9 of 30 sessions');

    const search = lines.findIndex((text) => text.startsWith('remote-search'));
    assert.match(line(search + 2), /^ {2}1\.1\.0\s+stable\s+–\s+–\s+–\s+–\s+–\s+–$/);
    assert.equal(line(search + 4), '    2026-11-20 08:00:00 UTC  widen 1.1.0 10% → 25% (stable 1.0.0)');
    assert.doesNotMatch(out, /remote-search[\s\S]*guard verdict/);
  });

  it('guard --once rolls back a canary clearly worse than its stable, leaves a healthy one alone, and writes why', async () => {
    assert.equal(cli('rollout', 'stable', 'remote-title', '1.3.0').code, 0);
    assert.equal(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '10').code, 0);
    assert.equal(cli('rollout', 'stable', 'remote-search', '1.0.0').code, 0);
    assert.equal(cli('rollout', 'canary', 'remote-search', '1.1.0', '--percent', '10').code, 0);
    await reportsArrived([
      ...times(40, () => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'fell-back' })),
      ...times(40, () => ({ remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'loaded' })),
      ...times(40, () => ({ remote: 'remote-search', release: '1.1.0', channel: 'canary', outcome: 'loaded' })),
      ...times(40, () => ({ remote: 'remote-search', release: '1.0.0', channel: 'stable', outcome: 'loaded' })),
    ]);

    const pass = cli('rollout', 'guard', '--once');
    assert.equal(pass.code, 0, pass.err);
    const passLines = pass.out.trim().split('\n');
    assert.equal(passLines.length, 1, pass.out);
    assert.match(passLines[0] ?? '', /^local: rollback remote-title 1\.4\.0 — failure rate: canary 1\.4\.0 failed 40 of 40 sessions \(100\.00%\)/);
    const map = await rollout();
    assert.deepEqual(map.remotes['remote-title'], { stable: '1.3.0', history: [], rolledBack: ['1.4.0'] });
    assert.deepEqual(map.remotes['remote-search']?.canary, { version: '1.1.0', percent: 10 });
    assert.equal(map.guardHistory?.length, 1);
    const { at, reason, ...entry } = map.guardHistory![0]!;
    assert.ok(Math.abs(Date.parse(at) - Date.now()) < 60_000, at);
    assert.match(reason, /^failure rate: canary 1\.4\.0 failed 40 of 40/);
    assert.deepEqual(entry, { remote: 'remote-title', action: 'rollback', version: '1.4.0', stable: '1.3.0', from: 10 });
    // The audit trail says the guard did it, and why.
    const [{ actor: by, ...last }] = (await harness.db.query('SELECT actor, action, remote, reason FROM audit ORDER BY id DESC LIMIT 1')).rows;
    assert.match(by, /^guard@/);
    assert.deepEqual(last, { action: 'rollback', remote: 'remote-title', reason });
    assert.match(cli('rollout', 'status').out, /rollback 1\.4\.0 at 10% \(stable 1\.3\.0\)\n {6}failure rate: canary 1\.4\.0 failed 40 of 40/);

    const again = cli('rollout', 'guard', '--once');
    assert.equal(again.code, 0);
    assert.equal(again.out, 'local: no change (1 canary checked).\n');
  });

  it('guard --stages widens a healthy canary once its stage had its sessions', async () => {
    const now = Date.now();
    await harness.setRollout({
      remotes: { 'remote-search': { stable: '1.0.0', canary: { version: '1.1.0', percent: 10 }, history: [] } },
      guardHistory: [{ at: new Date(now - 10 * 60_000).toISOString(), remote: 'remote-search', action: 'widen', version: '1.1.0', stable: '1.0.0', from: 5, to: 10, reason: 'healthy at 5%' }],
    });
    for (let minute = 8; minute >= 0; minute -= 1) {
      await reportsArrived(
        [
          ...times(10, () => ({ remote: 'remote-search', release: '1.1.0', channel: 'canary', outcome: 'loaded' })),
          ...times(90, (i) => ({ remote: 'remote-search', release: '1.0.0', channel: 'stable', outcome: i === 0 && minute === 4 ? 'failed' : 'loaded' })),
        ],
        now - minute * 60_000,
      );
    }
    // Without --stages the guard only ever rolls back.
    assert.equal(cli('rollout', 'guard', '--once').out, 'local: no change (1 canary checked).\n');
    assert.equal(cli('rollout', 'guard', '--once', '--stages', '10,25,50', '--min-stage-sessions', '100').out, 'local: no change (1 canary checked).\n');
    const widened = cli('rollout', 'guard', '--once', '--stages', '10,25,50', '--min-stage-sessions', '50');
    assert.equal(widened.code, 0);
    assert.match(widened.out, /^local: widen remote-search 1\.1\.0 — healthy at 10%: 90 sessions at this stage \(min 50\).*widened to 25%\n$/);
    const map = await rollout();
    assert.deepEqual(map.remotes['remote-search']?.canary, { version: '1.1.0', percent: 25 });
    const { action, from, to } = map.guardHistory!.at(-1)!;
    assert.deepEqual({ action, from, to }, { action: 'widen', from: 10, to: 25 });
  });

  it('guard keeps running, reading the figures afresh on every pass, until SIGTERM', { timeout: 30_000 }, async (t) => {
    assert.equal(cli('rollout', 'stable', 'remote-title', '1.3.0').code, 0);
    assert.equal(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '10').code, 0);
    const running = harness.cliAsync('rollout', 'guard', '--interval', '0.2');
    const { child } = running;
    let out = '';
    child.stdout.on('data', (chunk) => void (out += chunk.toString()));
    const seen = (text: string) =>
      new Promise<void>((done, fail) => {
        const started = Date.now();
        const timer = setTimeout(() => fail(new Error(`no "${text}" in: ${out}`)), 10_000);
        const check = () => {
          if (!out.includes(text)) return;
          t.diagnostic(`"${text}" seen after ${Date.now() - started} ms (bound 10000 ms)`);
          clearTimeout(timer);
          child.stdout.off('data', check);
          done();
        };
        child.stdout.on('data', check);
        check();
      });
    try {
      await seen('guard for local: every 0.2 s, rollbacks only (no --stages)');
      await new Promise((done) => setTimeout(done, 500));
      assert.deepEqual((await rollout()).remotes['remote-title']?.canary, { version: '1.4.0', percent: 10 });
      // The site's server records the reports while the guard runs.
      await reportsArrived([
        ...times(40, () => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'fell-back' })),
        ...times(40, () => ({ remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'loaded' })),
      ]);
      await seen('local: rollback remote-title 1.4.0 — failure rate:');
      assert.equal((await rollout()).remotes['remote-title']?.canary, undefined);
    } finally {
      child.kill('SIGTERM');
    }
    const result = await running;
    assert.equal(result.code, 0, result.err);
    assert.match(out, /guard for local stopped \(SIGTERM\)\./);
    // It gave its lease up as it stopped: the next guard need not wait for it to lapse.
    const { rows } = await harness.db.query("SELECT count(*)::int AS held FROM guard_leases WHERE environment = 'local' AND expires_at > now()");
    assert.equal(rows[0].held, 0);
  });
});

describe('release health: what is refused', () => {
  it('status reports figures it cannot read instead of guessing', async () => {
    // The store answers, but not with the counts: the table is away.
    await harness.db.query('ALTER TABLE health_counts RENAME TO health_counts_away');
    try {
      const result = cli('rollout', 'status');
      assert.equal(result.code, 1);
      assert.match(result.err, /^error: the release-health figures of local cannot be read from the store \(relation "health_counts" does not exist\)/);
      assert.equal(result.out, '');
    } finally {
      await harness.db.query('ALTER TABLE health_counts_away RENAME TO health_counts');
    }
  });

  for (const [args, message] of [
    [['--stages', '25,10'], /--stages takes percents from 1 to 100 in ascending order, like 10,25,50,100 \(got "25,10"\)/],
    [['--stages', '0,50'], /--stages takes percents from 1 to 100/],
    [['--stages', '10,101'], /--stages takes percents from 1 to 100/],
    [['--stages', '10,,50'], /--stages takes percents from 1 to 100/],
    [['--stages', '10,10'], /--stages takes percents from 1 to 100 in ascending order/],
    [['--min-stage-sessions', '0'], /--min-stage-sessions takes a whole number of sessions from 1 up, like 200 \(got "0"\)/],
    [['--min-stage-sessions', '2e2'], /--min-stage-sessions takes a whole number/],
    [['--interval=-1'], /--interval takes the seconds between passes, from 0.1 to 3600, like 5 \(got "-1"\)/],
    [['--interval', '0'], /--interval takes the seconds between passes/],
    [['--interval', 'soon'], /--interval takes the seconds between passes/],
    [['--once', '--interval', '5'], /--once runs a single pass/],
    [['--percent', '10'], /--percent is not an option of "guard"/],
  ] as [string[], RegExp][]) {
    it(`guard refuses ${JSON.stringify(args)} with a clear message before its first pass`, async () => {
      const map = { remotes: { 'remote-title': { stable: '1.3.0', canary: { version: '1.4.0', percent: 10 }, history: [] } } };
      await harness.setRollout(map);
      const result = cli('rollout', 'guard', ...args);
      assert.equal(result.code, 1);
      assert.match(result.err, message);
      assert.equal(result.out, '');
      assert.deepEqual(await harness.readRollout(), { version: 1, rollout: map });
      // Not even the lease was taken.
      assert.equal((await harness.db.query('SELECT count(*)::int AS leases FROM guard_leases')).rows[0].leases, 0);
    });
  }
});
