// Rollout commands (control-plane/bin/rollout.ts) run at the same time against one real PostgreSQL
// (./testing.ts), held so that they certainly overlap: changes to different remotes both land, and
// of two contradicting changes to one remote one lands and the other is refused, never a change
// lost without a word.
// Run: node --import tsx --test control-plane/src/cli/concurrentRollouts.test.ts
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { registerRelease } from '../store/releases.ts';
import { commandFixtures, type CliHarness, type CliResult } from './testing.ts';

const { deploy, harness } = commandFixtures();

describe('rollout commands at the same time', () => {
  // Releases are written straight to disk and registered, and starting maps written, straight to
  // the store: only the commands under test run.
  beforeEach(async () => {
    for (const remote of ['remote-title', 'remote-search']) {
      for (const version of ['1.0.0', '1.1.0']) {
        mkdirSync(join(deploy, remote, version), { recursive: true });
        writeFileSync(join(deploy, remote, version, 'mf-manifest.json'), '{}');
        await registerRelease(harness.db, remote, version, null);
      }
    }
  });

  /**
   * Runs `commands` so that they certainly overlap: writes to the maps are held (a SHARE lock on
   * the table, which reads pass) until every command has read the map and waits to write it, so
   * all of them read the same version and all but one must lose the compare-and-set.
   */
  async function atOnce(...commands: string[][]): Promise<CliResult[]> {
    const holder = await harness.db.connect();
    let runs: ReturnType<CliHarness['cliAsync']>[] = [];
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE rollouts IN SHARE MODE');
      runs = commands.map((args) => harness.cliAsync('rollout', ...args));
      const ended = Promise.race(runs).then((result) => result);
      const deadline = Date.now() + 15_000;
      for (;;) {
        const { rows } = await harness.db.query<{ waiting: number }>("SELECT count(*)::int AS waiting FROM pg_locks WHERE relation = 'rollouts'::regclass AND NOT granted");
        if (rows[0]?.waiting === commands.length) break;
        const early = await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 20))]);
        if (early) assert.fail(`a command ended before it could write: ${JSON.stringify(early)}`);
        if (Date.now() > deadline) assert.fail(`the commands did not all reach their write: ${rows[0]?.waiting} waiting`);
      }
    } finally {
      await holder.query('COMMIT').catch(() => {});
      holder.release();
    }
    return Promise.all(runs);
  }

  const base = { 'remote-title': { stable: '1.0.0', history: [] }, 'remote-search': { stable: '1.0.0', history: [] } };

  it('two commands on different remotes at once both land: 20 rounds, no change lost', async () => {
    for (let round = 1; round <= 20; round += 1) {
      const { version } = await harness.setRollout({ remotes: base });
      const [title, search] = await atOnce(
        ['canary', 'remote-title', '1.1.0', '--percent', String(round)],
        ['canary', 'remote-search', '1.1.0', '--percent', String(round + 50)],
      );
      assert.ok(title && search);
      assert.equal(title.code, 0, `round ${round}: remote-title: ${title.err}`);
      assert.equal(search.code, 0, `round ${round}: remote-search: ${search.err}`);
      const now = await harness.readRollout();
      assert.deepEqual(now.rollout?.remotes, {
        'remote-title': { stable: '1.0.0', history: [], canary: { version: '1.1.0', percent: round } },
        'remote-search': { stable: '1.0.0', history: [], canary: { version: '1.1.0', percent: round + 50 } },
      }, `round ${round}`);
      // One after the other, each on the map the other made: two versions, two audit entries.
      assert.equal(now.version, version + 2);
      const { rows } = await harness.db.query<{ map_version: string; remote: string }>('SELECT map_version, remote FROM audit WHERE map_version > $1 ORDER BY map_version', [version]);
      assert.deepEqual(rows.map((row) => row.map_version).map(Number), [version + 1, version + 2]);
      assert.deepEqual(rows.map((row) => row.remote).sort(), ['remote-search', 'remote-title']);
    }
  });

  it('of two contradicting commands on the same remote at once, one lands and the other is refused: never a silent lost change', async () => {
    const results = { promote: 0, rollback: 0 };
    for (let round = 1; round <= 5; round += 1) {
      const { version } = await harness.setRollout({ remotes: { ...base, 'remote-title': { stable: '1.0.0', history: [], canary: { version: '1.1.0', percent: 10 } } } });
      const [promoted, rolledBack] = await atOnce(['promote', 'remote-title'], ['rollback', 'remote-title']);
      assert.ok(promoted && rolledBack);
      assert.deepEqual([promoted.code, rolledBack.code].sort(), [0, 1], `round ${round}: ${promoted.err} ${rolledBack.err}`);
      const [winner, loser] = promoted.code === 0 ? (['promote', rolledBack] as const) : (['rollback', promoted] as const);
      results[winner] += 1;
      const now = winner === 'promote' ? 'stable 1.1.0' : 'stable 1.0.0';
      assert.match(loser.err, new RegExp(`^error: remote-title in local was changed by someone else meanwhile \\(now ${now}\\); nothing was changed\\. Check \`npm run rollout -- status\` and try again\\.\\n$`));
      assert.equal(loser.out, '');
      const after = await harness.readRollout();
      assert.equal(after.version, version + 1);
      assert.deepEqual(
        after.rollout?.remotes['remote-title'],
        winner === 'promote' ? { stable: '1.1.0', history: ['1.0.0'] } : { stable: '1.0.0', history: [], rolledBack: ['1.1.0'] },
      );
      const { rows } = await harness.db.query('SELECT action FROM audit WHERE map_version > $1', [version]);
      assert.deepEqual(rows, [{ action: winner }]);
    }
    assert.equal(results.promote + results.rollback, 5);
  });
});
