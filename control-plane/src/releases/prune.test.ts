// Retention (./prune.ts, `npm run rollout -- prune`): which releases stay and which go, with the
// real rollout command against a throwaway origin folder and a real PostgreSQL (../cli/testing.ts),
// maps and audit entries dated as an operator's store would hold them.
// Run: node --import tsx --test control-plane/src/releases/prune.test.ts
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { listReleases, registerRelease } from '../store/releases.ts';
import type { Rollout } from '../store/rollouts.ts';
import { cliHarness, type CliHarness } from '../cli/testing.ts';
import { planPrune } from './prune.ts';

let deploy: string;
let harness: CliHarness;
const DAY_MS = 24 * 60 * 60 * 1000;

before(async () => {
  harness = await cliHarness({ deployDir: () => deploy });
});
after(() => harness.close());

/** A release in the origin folder (its mf-manifest.json dated `daysAgo`), and in the store unless `registered: false`. */
async function publish(remote: string, version: string, { daysAgo = 40, registered = true, folder = true } = {}) {
  if (folder) {
    const dir = join(deploy, remote, version);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'remoteEntry.js'), `/* ${remote} ${version} */`);
    writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ name: remote.replace('-', '_') }));
    const at = new Date(Date.now() - daysAgo * DAY_MS);
    utimesSync(join(dir, 'mf-manifest.json'), at, at);
  }
  if (registered) {
    await registerRelease(harness.db, remote, version, null);
    await harness.db.query(`UPDATE releases SET published_at = now() - make_interval(days => $3) WHERE remote = $1 AND version = $2`, [remote, version, daysAgo]);
  }
}

/** An environment's map history: each map with its age in days (oldest first); the last one is current. */
async function history(environment: string, maps: Array<[daysAgo: number, map: Rollout]>) {
  for (const [index, [daysAgo, map]] of maps.entries()) {
    await harness.db.query(
      `INSERT INTO audit (environment, map_version, at, actor, action, map) VALUES ($1, $2, now() - make_interval(secs => $3), 'test', 'import', $4::jsonb)`,
      [environment, index + 1, daysAgo * 86400, JSON.stringify(map)],
    );
  }
  const [, current] = maps.at(-1)!;
  await harness.db.query('INSERT INTO rollouts (environment, version, map) VALUES ($1, $2, $3::jsonb)', [environment, maps.length, JSON.stringify(current)]);
}

const title = (stable: string, extra: Partial<Rollout['remotes'][string]> = {}): Rollout => ({ remotes: { 'remote-title': { stable, ...extra } } });

beforeEach(async () => {
  deploy = mkdtempSync(join(tmpdir(), 'netnet-prune-'));
  await harness.reset();

  // What each environment's current map names.
  await history('local', [[3, title('1.0.0', { canary: { version: '1.1.0', percent: 10 }, history: ['0.9.0'], rolledBack: ['0.8.0'] })]]);
  await history('production', [
    [2, { remotes: { 'remote-search': { stable: '2.0.0' } }, production: true, guardHistory: [{ at: '2026-11-25T00:00:00Z', remote: 'remote-title', action: 'rollback', version: '0.7.0', stable: '1.0.0', from: 10, reason: 'worse' }] }],
  ]);
  // Maps no longer current: one written 29 days ago; one written 31 days ago and replaced 30.5
  // days ago; one written 31 days ago and replaced only 29 days ago (in effect when the window began).
  await history('staging', [[29, title('0.5.0')], [1, title('1.0.0')]]);
  await history('old', [[31, title('0.4.0')], [30.5, title('1.0.0')]]);
  await history('straddle', [[31, title('0.3.0')], [29, title('1.0.0')]]);

  for (const version of ['0.3.0', '0.4.0', '0.5.0', '0.7.0', '0.8.0', '0.9.0', '1.0.0', '1.1.0', '0.1.0']) await publish('remote-title', version);
  await publish('remote-title', '0.2.0', { daysAgo: 2 }); // named by no map, but published two days ago
  await publish('remote-title', '0.6.0', { folder: false }); // in the store only: its folder went missing
  await publish('remote-search', '2.0.0');
  await publish('remote-search', '1.9.0', { registered: false }); // in the folder only, never registered
});
afterEach(() => rmSync(deploy, { recursive: true, force: true }));

const GONE = [
  ['remote-search', '1.9.0'],
  ['remote-title', '0.1.0'],
  ['remote-title', '0.4.0'],
  ['remote-title', '0.6.0'],
];
const KEPT = [
  ['remote-search', '2.0.0'],
  ['remote-title', '0.2.0'],
  ['remote-title', '0.3.0'],
  ['remote-title', '0.5.0'],
  ['remote-title', '0.7.0'],
  ['remote-title', '0.8.0'],
  ['remote-title', '0.9.0'],
  ['remote-title', '1.0.0'],
  ['remote-title', '1.1.0'],
];

const folders = (remote: string) => (existsSync(join(deploy, remote)) ? readdirSync(join(deploy, remote)).sort() : []);
async function registered(): Promise<string[][]> {
  const releases = await listReleases(harness.db);
  return [...releases].flatMap(([remote, list]) => list.map(({ version }) => [remote, version])).sort();
}

describe('planPrune', () => {
  it('keeps what any map in effect in the last 30 days names, or what was published in them, and says why; removes the rest', async () => {
    const plan = await planPrune(harness.db, { deployDir: deploy });
    assert.deepEqual(plan.remove, [
      { remote: 'remote-search', version: '1.9.0', registered: false, folder: true },
      { remote: 'remote-title', version: '0.1.0', registered: true, folder: true },
      { remote: 'remote-title', version: '0.4.0', registered: true, folder: true },
      { remote: 'remote-title', version: '0.6.0', registered: true, folder: false },
    ]);
    const why = Object.fromEntries(plan.keep.map(({ remote, version, reasons }) => [`${remote} ${version}`, reasons]));
    assert.deepEqual(Object.keys(why), KEPT.map(([remote, version]) => `${remote} ${version}`));
    assert.ok(why['remote-title 1.0.0']!.includes('stable in local'));
    assert.ok(why['remote-title 1.1.0']!.includes('canary in local'));
    assert.ok(why['remote-title 0.9.0']!.includes('history in local'));
    assert.ok(why['remote-title 0.8.0']!.includes('rolled back (pin policy) in local'));
    assert.ok(why['remote-title 0.7.0']!.includes('guard history in production'));
    assert.ok(why['remote-search 2.0.0']!.includes('stable in production'));
    // Only in a map written 29 days ago (replaced since): kept.
    assert.deepEqual(why['remote-title 0.5.0'], [`stable in staging's map of ${day(29)} (v1)`]);
    // Written 31 days ago but in effect until 29 days ago: a tab opened then may still use it.
    assert.deepEqual(why['remote-title 0.3.0'], [`stable in straddle's map of ${day(31)} (v1), still in effect 30 days ago`]);
    assert.deepEqual(why['remote-title 0.2.0'], [`published ${day(2)}, less than 30 days ago`]);
  });

  it('removes a release only in a map of 31 days ago once that map had been replaced before the window began', async () => {
    const plan = await planPrune(harness.db, { deployDir: deploy });
    assert.ok(plan.remove.some(({ version }) => version === '0.4.0'));
    // The day after, the straddling map has left the window too (replaced 29 days ago, now 30).
    const later = await planPrune(harness.db, { deployDir: deploy, now: Date.now() + 1.5 * DAY_MS });
    assert.ok(later.remove.some(({ version }) => version === '0.3.0'));
    assert.ok(later.keep.some(({ version }) => version === '0.5.0'));
  });
});

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

describe('npm run rollout -- prune', () => {
  it('dry run by default: prints what would go and why the rest stays, and changes nothing', async () => {
    const before = { title: folders('remote-title'), search: folders('remote-search'), store: await registered() };
    const result = harness.cli('rollout', 'prune');
    assert.equal(result.code, 0, result.err);
    const lines = result.out.trim().split('\n');
    assert.match(lines[0]!, /^retention: releases named by any environment's map, by any map in effect since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, or published since then$/);
    assert.deepEqual(lines.filter((line) => line.startsWith('would remove')), [
      'would remove remote-search 1.9.0 (from its folder): named by no map in effect in the last 30 days',
      'would remove remote-title 0.1.0 (from its folder and the store): named by no map in effect in the last 30 days',
      'would remove remote-title 0.4.0 (from its folder and the store): named by no map in effect in the last 30 days',
      'would remove remote-title 0.6.0 (from the store): named by no map in effect in the last 30 days',
    ]);
    assert.deepEqual(lines.filter((line) => line.startsWith('keep')).map((line) => line.split(':')[0]), KEPT.map(([remote, version]) => `keep ${remote} ${version}`));
    assert.ok(lines.some((line) => line.startsWith('keep remote-title 1.0.0: stable in local; ')));
    assert.ok(lines.includes(`keep remote-title 0.5.0: stable in staging's map of ${day(29)} (v1)`));
    assert.equal(lines.at(-1), 'dry run: nothing was removed; --apply removes them');
    assert.deepEqual({ title: folders('remote-title'), search: folders('remote-search'), store: await registered() }, before);
  });

  it('--apply removes them from the origin folder and the store, and keeps the others exactly', async () => {
    const result = harness.cli('rollout', 'prune', '--apply');
    assert.equal(result.code, 0, result.err);
    assert.deepEqual(
      result.out.split('\n').filter((line) => line.startsWith('removed')).map((line) => line.split(' ').slice(1, 3)),
      GONE,
    );
    assert.deepEqual(folders('remote-title'), ['0.2.0', '0.3.0', '0.5.0', '0.7.0', '0.8.0', '0.9.0', '1.0.0', '1.1.0']);
    assert.deepEqual(folders('remote-search'), ['2.0.0']);
    assert.deepEqual(await registered(), [...KEPT].sort());
    // Again: nothing more to remove.
    const again = harness.cli('rollout', 'prune', '--apply');
    assert.equal(again.code, 0, again.err);
    assert.ok(again.out.includes('nothing to remove'));
  });

  it('refuses a flag of another command', () => {
    const result = harness.cli('rollout', 'prune', '--percent', '10');
    assert.equal(result.code, 1);
    assert.match(result.err, /--percent is not an option of "prune"/);
  });
});
