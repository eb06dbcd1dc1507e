// The rollout command (control-plane/bin/rollout.ts) as a release owner runs it, against a
// throwaway deploy tree and a real PostgreSQL (./testing.ts): status, stable → canary → promote →
// rollback with the history and audit entry of each change, what counts as published, the map the
// shell reads, environments kept apart, and a malformed map in the store reported rather than
// overwritten. What it refuses is in rolloutRefusals.test.ts; the releases are published with
// --from a fake build.
// Run: node --import tsx --test control-plane/src/cli/rollout.test.ts
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { registerRelease } from '../store/releases.ts';
import { commandFixtures } from './testing.ts';

const { deploy, harness, cli, rollout, sha384, actor, fakeBuild, publish } = commandFixtures();

describe('rollout', () => {
  beforeEach(() => {
    for (const version of ['1.3.0', '1.4.0', '1.5.0']) assert.equal(publish('remote-title', version).code, 0);
  });

  it('status shows remotes served from their own build until something is rolled out', () => {
    const { code, out } = cli('rollout', 'status');
    assert.equal(code, 0);
    assert.match(out, /environment local \(nothing rolled out yet\)/);
    assert.match(out, /release health: nothing reported in the last 60 min/);
    assert.match(out, /remote-auth\s+own build \(http:\/\/localhost:3001\/mf-manifest.json\)/);
    assert.match(out, /remote-title\s+own build .* published 1.3.0, 1.4.0, 1.5.0/);
    assert.doesNotMatch(out, /latest changes/);
  });

  it('stable → canary → promote → rollback, keeping a history, each change a new map version with its audit entry', async () => {
    const first = cli('rollout', 'stable', 'remote-title', '1.3.0');
    assert.equal(first.code, 0, first.err);
    assert.match(first.out, /^local: remote-title\s+stable 1\.3\.0 · published 1\.3\.0, 1\.4\.0, 1\.5\.0\nmap version 1; every instance/);
    assert.equal(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '10').code, 0);
    assert.deepEqual((await rollout()).remotes['remote-title'], { stable: '1.3.0', canary: { version: '1.4.0', percent: 10 }, history: [] });

    assert.equal(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '50').code, 0);
    assert.deepEqual((await rollout()).remotes['remote-title']?.canary, { version: '1.4.0', percent: 50 });
    const status = cli('rollout', 'status').out;
    assert.match(status, /remote-title\s+stable 1.3.0 · canary 1.4.0 at 50%/);
    assert.match(status, /environment local \(map version 3\)/);
    const stamp = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC';
    const who = actor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.match(
      status,
      new RegExp(`latest changes:\\n  v3 ${stamp}  ${who}: canary remote-title\\n  v2 ${stamp}  ${who}: canary remote-title\\n  v1 ${stamp}  ${who}: stable remote-title\\n`),
    );

    assert.equal(cli('rollout', 'promote', 'remote-title').code, 0);
    assert.deepEqual((await rollout()).remotes['remote-title'], { stable: '1.4.0', history: ['1.3.0'] });

    // Rollback drops a canary first, then steps back through earlier stables.
    cli('rollout', 'canary', 'remote-title', '1.5.0', '--percent', '5');
    assert.equal(cli('rollout', 'rollback', 'remote-title').code, 0);
    // What was rolled back is remembered: QA cannot pin it by accident (see the map below).
    assert.deepEqual((await rollout()).remotes['remote-title'], { stable: '1.4.0', history: ['1.3.0'], rolledBack: ['1.5.0'] });
    assert.equal(cli('rollout', 'rollback', 'remote-title').code, 0);
    assert.deepEqual((await rollout()).remotes['remote-title'], { stable: '1.3.0', history: [], rolledBack: ['1.5.0', '1.4.0'] });
    // Choosing a rolled-back version again, on purpose, takes it off the list.
    assert.equal(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '5').code, 0);
    assert.deepEqual((await rollout()).remotes['remote-title'], {
      stable: '1.3.0',
      canary: { version: '1.4.0', percent: 5 },
      history: [],
      rolledBack: ['1.5.0'],
    });
    assert.equal(cli('rollout', 'rollback', 'remote-title').code, 0);

    const nothingLeft = cli('rollout', 'rollback', 'remote-title');
    assert.equal(nothingLeft.code, 1);
    assert.match(nothingLeft.err, /no canary and no earlier stable release to roll back to/);

    // Every change that landed, and only those, in the audit trail with the map it made.
    const { rows } = await harness.db.query("SELECT map_version, actor, action, remote, map FROM audit WHERE environment = 'local' ORDER BY id");
    assert.deepEqual(
      rows.map((row) => `v${row.map_version} ${row.action}`),
      ['v1 stable', 'v2 canary', 'v3 canary', 'v4 promote', 'v5 canary', 'v6 rollback', 'v7 rollback', 'v8 canary', 'v9 rollback'],
    );
    assert.ok(rows.every((row) => row.actor === actor && row.remote === 'remote-title'));
    const { version, rollout: map } = await harness.readRollout();
    assert.equal(version, 9);
    assert.deepEqual(rows.at(-1)?.map, map);
  });

  it('takes a version as published once the store lists it: its files in the deploy folder alone are not a release', async () => {
    // Files put there by hand (or copied from another deploy folder), never registered.
    cpSync(fakeBuild('remote-title', '2.0.0'), join(deploy, 'remote-title', '2.0.0'), { recursive: true });
    assert.equal(cli('rollout', 'stable', 'remote-title', '1.3.0').code, 0);
    for (const args of [['canary', 'remote-title', '2.0.0', '--percent', '10'], ['stable', 'remote-title', '2.0.0']]) {
      const refused = cli('rollout', ...args);
      assert.equal(refused.code, 1, refused.out);
      assert.equal(refused.err, 'error: remote-title 2.0.0 is not published. Publish it first: npm run release -- remote-title --version 2.0.0\n');
    }
    assert.deepEqual((await rollout()).remotes['remote-title'], { stable: '1.3.0', history: [] });
    await registerRelease(harness.db, 'remote-title', '2.0.0', null);
    assert.equal(cli('rollout', 'canary', 'remote-title', '2.0.0', '--percent', '10').code, 0);
    assert.deepEqual((await rollout()).remotes['remote-title']?.canary, { version: '2.0.0', percent: 10 });
  });

  it('rolls back only to an earlier stable the store still lists', async () => {
    assert.equal(cli('rollout', 'stable', 'remote-title', '1.3.0').code, 0);
    assert.equal(cli('rollout', 'stable', 'remote-title', '1.4.0').code, 0);
    // Its files stay in the deploy folder; the store no longer lists it.
    await harness.db.query("DELETE FROM releases WHERE remote = 'remote-title' AND version = '1.3.0'");
    const refused = cli('rollout', 'rollback', 'remote-title');
    assert.equal(refused.code, 1);
    assert.equal(refused.err, 'error: remote-title 1.3.0 is not published. Publish it first: npm run release -- remote-title --version 1.3.0\n');
    assert.deepEqual((await rollout()).remotes['remote-title'], { stable: '1.4.0', history: ['1.3.0'] });
  });

  it('status --json is the map the shell reads: published releases for rolled-out remotes, own builds for the rest', () => {
    cli('rollout', 'stable', 'remote-title', '1.3.0');
    cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '10');
    const map = JSON.parse(cli('rollout', 'status', '--json').out);
    const release = (version: string) => ({
      version,
      entry: `http://localhost:8090/remote-title/${version}/mf-manifest.json`,
      integrity: {
        'mf-manifest.json': sha384(readFileSync(join(deploy, 'remote-title', version, 'mf-manifest.json'))),
        'remoteEntry.js': sha384(`/* remote-title ${version} */`),
        'integrity.json': sha384(readFileSync(join(deploy, 'remote-title', version, 'integrity.json'))),
      },
    });
    assert.deepEqual(map.remotes['remote-title'], {
      stable: release('1.3.0'),
      canary: { ...release('1.4.0'), percent: 10 },
      pinnable: [release('1.3.0'), release('1.4.0'), release('1.5.0')],
    });
    assert.equal(map.remotes['remote-auth'].stable.entry, 'http://localhost:3001/mf-manifest.json');
  });

  it('keeps environments apart', async () => {
    assert.equal(cli('rollout', 'stable', 'remote-title', '1.5.0', '--env', 'staging').code, 0);
    assert.equal((await rollout('staging')).remotes['remote-title']?.stable, '1.5.0');
    assert.deepEqual(await harness.readRollout('local'), { version: 0, rollout: null });
    assert.match(cli('rollout', 'status').out, /environment local \(nothing rolled out yet\)/);
  });

  it('reports a map in the store that does not validate (written by hand) instead of overwriting it', async () => {
    const broken = { remotes: { 'remote-title': { stable: 'latest' } } };
    await harness.db.query("INSERT INTO rollouts (environment, version, map) VALUES ('local', 7, $1::jsonb)", [JSON.stringify(broken)]);
    // The hand-made row has its own audit row, written by the database; the commands add none.
    const audited = (await harness.db.query('SELECT count(*) FROM audit')).rows[0].count;
    const status = cli('rollout', 'status');
    assert.equal(status.code, 1);
    assert.match(status.err, /error: the local map in the store is malformed: remote-title needs a "stable" version/);
    const change = cli('rollout', 'stable', 'remote-title', '1.3.0');
    assert.equal(change.code, 1);
    assert.match(change.err, /error: the local map in the store is malformed: remote-title needs a "stable" version/);
    const { rows } = await harness.db.query("SELECT version, map FROM rollouts WHERE environment = 'local'");
    assert.deepEqual(rows, [{ version: '7', map: broken }]);
    assert.equal((await harness.db.query('SELECT count(*) FROM audit')).rows[0].count, audited);
  });
});
