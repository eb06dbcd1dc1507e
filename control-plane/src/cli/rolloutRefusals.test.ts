// What the rollout command (control-plane/bin/rollout.ts) refuses, with a clear message and
// nothing written: unknown remotes, commands and environment names, unpublished versions, a canary
// before any stable or of the stable itself, and canary percents it cannot take (beside the "10%"
// it does), run as a release owner runs it against a throwaway deploy tree and a real PostgreSQL
// (./testing.ts). What it does is in rollout.test.ts; the releases are published with --from a
// fake build.
// Run: node --import tsx --test control-plane/src/cli/rolloutRefusals.test.ts
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { commandFixtures } from './testing.ts';

const { harness, cli, rollout, publish } = commandFixtures();

describe('rollout', () => {
  beforeEach(() => {
    for (const version of ['1.3.0', '1.4.0', '1.5.0']) assert.equal(publish('remote-title', version).code, 0);
  });

  for (const [args, message] of [
    [['canary', 'remote-nope', '1.4.0', '--percent', '10'], /Unknown remote "remote-nope"/],
    [['canary', 'remote-title', '1.4.0', '--percent', '10'], /has no stable release in this environment yet/],
    [['stable', 'remote-title', '2.0.0'], /remote-title 2.0.0 is not published/],
    [['promote', 'remote-title'], /has no stable release/],
    [['status', '--env', 'Bad Env'], /not an environment name/],
    [['launch', 'remote-title'], /Unknown command "launch"/],
  ] as [string[], RegExp][]) {
    it(`refuses ${JSON.stringify(args)} with a clear message and writes nothing`, async () => {
      const result = cli('rollout', ...args);
      assert.equal(result.code, 1);
      assert.match(result.err, message);
      const { rows } = await harness.db.query("SELECT (SELECT count(*) FROM rollouts) AS maps, (SELECT count(*) FROM audit WHERE kind = 'map') AS changes");
      assert.deepEqual(rows, [{ maps: '0', changes: '0' }]);
    });
  }

  // The whole table of spellings is in ../rollouts/commands.test.ts; here the flag end to end.
  for (const percent of ['-1', '101', '0x10', '1e1', '10.5']) {
    it(`refuses a canary percent of ${JSON.stringify(percent)}`, async () => {
      cli('rollout', 'stable', 'remote-title', '1.3.0');
      const result = cli('rollout', 'canary', 'remote-title', '1.4.0', `--percent=${percent}`);
      assert.equal(result.code, 1);
      assert.ok(result.err.includes(`--percent takes a whole number from 0 to 100, like 10 (got "${percent}")`), result.err);
      const { version, rollout: map } = await harness.readRollout();
      assert.equal(version, 1);
      assert.equal(map?.remotes['remote-title']?.canary, undefined);
    });
  }

  it('takes a canary percent written with "%"', async () => {
    cli('rollout', 'stable', 'remote-title', '1.3.0');
    assert.equal(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent=10%').code, 0);
    assert.deepEqual((await rollout()).remotes['remote-title']?.canary, { version: '1.4.0', percent: 10 });
  });

  it('refuses a canary of the stable version, and of a version that is not published', () => {
    cli('rollout', 'stable', 'remote-title', '1.3.0');
    assert.match(cli('rollout', 'canary', 'remote-title', '1.3.0', '--percent', '10').err, /is the stable release/);
    assert.match(cli('rollout', 'canary', 'remote-title', '9.0.0', '--percent', '10').err, /9.0.0 is not published/);
  });
});
