// The release and rollout commands (control-plane/bin/release.ts, control-plane/bin/rollout.ts) as a
// release owner runs them, against a throwaway deploy tree and a real PostgreSQL (./testing.ts).
// Releases are published with --from a fake build, so no webpack run is needed; the e2e rollout
// spec builds real ones.
// Run: node --import tsx --test control-plane/src/cli/commands.test.ts
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { openDatabase } from '../store/database.ts';
import { embeddedDir, startEmbedded } from '../store/embedded.ts';
import { registerRelease } from '../store/releases.ts';
import { readRollout, type Rollout } from '../store/rollouts.ts';
import type { Counted } from '../health/figures.ts';
import { cliHarness, root, type CliHarness, type CliResult } from './testing.ts';

let deploy: string;
let builds: string;
let harness: CliHarness;

before(async () => {
  harness = await cliHarness({ deployDir: () => deploy, strip: ['NETNET_SHELL_MANIFEST'] });
});
after(() => harness.close());

beforeEach(async () => {
  deploy = mkdtempSync(join(tmpdir(), 'netnet-deploy-'));
  builds = mkdtempSync(join(tmpdir(), 'netnet-builds-'));
  await harness.reset();
});
afterEach(() => {
  rmSync(deploy, { recursive: true, force: true });
  rmSync(builds, { recursive: true, force: true });
});

const cli = (...args: Parameters<CliHarness['cli']>) => harness.cli(...args);
/** The environment's map: the tests that read it have rolled something out there. */
const rollout = async (environment?: string): Promise<Rollout> => {
  const map = await harness.rollout(environment);
  assert.ok(map, 'a map in the store');
  return map;
};
const sha384 = (content: string | Buffer) => `sha384-${createHash('sha384').update(content).digest('base64')}`;
const actor = `${userInfo().username}@${hostname()}`;

/** The releases the store lists, as "remote version" lines, oldest first. */
async function registered() {
  const { rows } = await harness.db.query<{ release: string }>("SELECT remote || ' ' || version AS release FROM releases ORDER BY remote, version");
  return rows.map((row) => row.release);
}

const shared = (name: string, requiredVersion: string, version = requiredVersion.replace(/^\D+/, '')) => ({ name, version, singleton: true, requiredVersion });

/**
 * The `shared` list of a production build of the current code, as webpack.shared.js makes it:
 * the singletons at the ranges of shared/package.json, and @netnet/shared at ^its version.
 */
function sharedOfThisCode() {
  const pkg = JSON.parse(readFileSync(join(root, 'shared/package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };
  const singletons = { react: 'react', 'react/jsx-runtime': 'react', 'react-dom': 'react-dom', 'react-dom/client': 'react-dom', jotai: 'jotai' };
  return [...Object.entries(singletons).map(([name, from]) => shared(name, pkg.dependencies[from] ?? '')), shared(pkg.name, `^${pkg.version}`)];
}

/** A stand-in for a production build of a remote at a version; its manifest declares `sharedList`. */
function fakeBuild(remote: string, version: string, name = remote.replace('-', '_'), sharedList: unknown = sharedOfThisCode()) {
  const dir = join(builds, `${remote}-${version}-${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ name, metaData: { buildInfo: { buildVersion: version } }, shared: sharedList }));
  writeFileSync(join(dir, 'remoteEntry.js'), `/* ${remote} ${version} */`);
  return dir;
}

const publish = (remote: string, version: string) => cli('release', remote, '--version', version, '--from', fakeBuild(remote, version));

describe('release', () => {
  it('publishes a build as deploy/<remote>/<version>/ and registers it in the store, and refuses to publish that version again', async () => {
    const first = publish('remote-title', '1.4.0');
    assert.equal(first.code, 0, first.err);
    assert.match(first.out, /published remote-title 1\.4\.0/);
    assert.deepEqual(readdirSync(join(deploy, 'remote-title')), ['1.4.0']);
    assert.equal(existsSync(join(deploy, 'remote-title/1.4.0/remoteEntry.js')), true);
    const { rows } = await harness.db.query('SELECT remote, version, integrity FROM releases');
    assert.deepEqual(rows, [
      {
        remote: 'remote-title',
        version: '1.4.0',
        integrity: {
          'mf-manifest.json': sha384(readFileSync(join(deploy, 'remote-title/1.4.0/mf-manifest.json'))),
          'remoteEntry.js': sha384('/* remote-title 1.4.0 */'),
          'integrity.json': sha384(readFileSync(join(deploy, 'remote-title/1.4.0/integrity.json'))),
        },
      },
    ]);

    const again = publish('remote-title', '1.4.0');
    assert.equal(again.code, 1);
    assert.match(again.err, /remote-title 1.4.0 is already published .* Releases are immutable/);
    assert.equal(readFileSync(join(deploy, 'remote-title/1.4.0/remoteEntry.js'), 'utf8'), '/* remote-title 1.4.0 */');
    assert.deepEqual(await registered(), ['remote-title 1.4.0']);
  });

  it("takes the remote's package.json version by default", async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'remote-search/package.json'), 'utf8'));
    const result = cli('release', 'remote-search', '--from', fakeBuild('remote-search', version));
    assert.equal(result.code, 0, result.err);
    assert.equal(existsSync(join(deploy, 'remote-search', version, 'mf-manifest.json')), true);
    assert.deepEqual(await registered(), [`remote-search ${version}`]);
  });

  for (const [args, message] of [
    [['remote-nope', '--version', '1.0.0'], /Unknown remote "remote-nope"/],
    [['remote-title', '--version', '1.4'], /"1.4" is not a version/],
    [['remote-title', '--version', '../1.0.0'], /is not a version/],
    [['remote-title', '--version', '1.0.0', '--from', '/no/such/build'], /does not exist/],
    [['remote-title', '--bogus'], /Unknown option '--bogus'/],
  ] as [string[], RegExp][]) {
    it(`refuses ${JSON.stringify(args)} with a clear message`, async () => {
      const result = cli('release', ...args);
      assert.equal(result.code, 1);
      assert.match(result.err, message);
      assert.equal(existsSync(join(deploy, 'remote-title', '1.0.0')), false);
      assert.deepEqual(await registered(), []);
    });
  }

  it('refuses a build that is not what it claims to be, and leaves nothing behind', async () => {
    const mislabelled = cli('release', 'remote-title', '--version', '1.5.0', '--from', fakeBuild('remote-title', '1.4.0'));
    assert.equal(mislabelled.code, 1);
    assert.match(mislabelled.err, /was built as version 1.4.0, not 1.5.0/);
    const otherRemote = cli('release', 'remote-title', '--version', '1.5.0', '--from', fakeBuild('remote-title', '1.5.0', 'remote_search'));
    assert.match(otherRemote.err, /holds remote_search, not remote-title/);
    assert.deepEqual(readdirSync(join(deploy, 'remote-title')), []);
    assert.deepEqual(await registered(), []);
  });
});

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

describe('the embedded database', () => {
  it('is started by the first command that needs it, in <deploy>/.database, and left running for the next', async () => {
    // No DATABASE_URL: what a release owner gets in a checkout where the site is not running.
    const env = { DATABASE_URL: '', DATABASE_URL_CLI: '' };
    const local = { NETNET_DEPLOY_DIR: deploy };
    try {
      const published = harness.cliWith(env, 'release', 'remote-title', '--version', '1.3.0', '--from', fakeBuild('remote-title', '1.3.0'));
      assert.equal(published.code, 0, published.err);
      assert.equal(existsSync(join(embeddedDir(local), 'PG_VERSION')), true);
      assert.equal(harness.cliWith(env, 'rollout', 'stable', 'remote-title', '1.3.0').code, 0);
      assert.match(harness.cliWith(env, 'rollout', 'status').out, /remote-title\s+stable 1\.3\.0 · published 1\.3\.0\n/);
      const running = await startEmbedded(local);
      assert.equal(running.startedHere, false, 'the commands left it running');
      const store = await openDatabase({ env: local, max: 1 });
      try {
        assert.deepEqual((await readRollout(store.pool, 'local')).rollout, { remotes: { 'remote-title': { stable: '1.3.0', history: [] } } });
      } finally {
        await store.close();
      }
      // The test's own database saw none of it.
      assert.deepEqual(await registered(), []);
    } finally {
      if (existsSync(join(embeddedDir(local), 'PG_VERSION'))) await (await startEmbedded(local)).stop();
    }
  });
});

describe('release --from with links in the build', () => {
  it('copies a link that stays inside the build as a plain file', () => {
    const build = fakeBuild('remote-title', '2.0.0');
    symlinkSync(join(build, 'remoteEntry.js'), join(build, 'alias.js'));
    assert.equal(cli('release', 'remote-title', '--version', '2.0.0', '--from', build).code, 0);
    const alias = join(deploy, 'remote-title/2.0.0/alias.js');
    assert.equal(lstatSync(alias).isSymbolicLink(), false);
    assert.equal(readFileSync(alias, 'utf8'), '/* remote-title 2.0.0 */');
  });

  for (const [kind, target] of [
    ['a file', (secret) => secret],
    ['a folder', (secret) => join(secret, '..')],
  ] as [string, (secret: string) => string][]) {
    it(`refuses a build with a link to ${kind} outside it, and publishes nothing`, async () => {
      const build = fakeBuild('remote-title', '2.0.0');
      const secret = join(builds, 'elsewhere', 'key.txt');
      mkdirSync(join(secret, '..'), { recursive: true });
      writeFileSync(secret, 'do not publish');
      symlinkSync(target(secret), join(build, 'leak'));
      const result = cli('release', 'remote-title', '--version', '2.0.0', '--from', build);
      assert.equal(result.code, 1);
      assert.match(result.err, /leak in the build links outside it/);
      assert.deepEqual(readdirSync(join(deploy, 'remote-title')), []);
      assert.deepEqual(await registered(), []);
    });
  }

  it('refuses a build whose link loops back to a folder holding it', () => {
    const build = fakeBuild('remote-title', '2.0.0');
    mkdirSync(join(build, 'assets'));
    symlinkSync(build, join(build, 'assets', 'up'));
    const result = cli('release', 'remote-title', '--version', '2.0.0', '--from', build);
    assert.equal(result.code, 1);
    assert.match(result.err, /assets\/up in the build links back to a folder holding it/);
  });
});

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

describe('the compatibility gate', () => {
  // A shell build of our own making, so the versions it provides are known here exactly.
  let shellManifest: string;
  const gated = (...args: string[]) => harness.cliWith({ NETNET_SHELL_MANIFEST: shellManifest }, 'rollout', ...args);
  const release = (version: string, sharedList: unknown) =>
    assert.equal(cli('release', 'remote-title', '--version', version, '--from', fakeBuild('remote-title', version, undefined, sharedList)).code, 0);
  const fits = [shared('react', '^19.0.0'), shared('react-dom/client', '^19.3.0'), shared('jotai', '~2.20.0'), shared('@netnet/shared', '^1.0.0')];
  const needsReact20 = [shared('react', '^20.0.0'), shared('jotai', '^2.20.3')];

  beforeEach(() => {
    shellManifest = join(builds, 'shell-mf-manifest.json');
    const provides = { react: '19.3.1', 'react-dom': '19.3.1', 'react-dom/client': '19.3.1', 'react/jsx-runtime': '19.3.1', jotai: '2.20.3', '@netnet/shared': '1.0.0' };
    writeFileSync(shellManifest, JSON.stringify({ name: 'shell', shared: Object.entries(provides).map(([name, version]) => shared(name, `^${version}`, version)) }));
    release('1.3.0', fits);
  });

  it('lets a release through whose every requirement the shell meets, without a word', async () => {
    const result = gated('stable', 'remote-title', '1.3.0');
    assert.equal(result.code, 0);
    assert.equal(result.err, '');
    assert.equal((await rollout()).remotes['remote-title']?.stable, '1.3.0');
  });

  it('refuses a canary that needs another version of a shared package, naming the package and both versions', async () => {
    gated('stable', 'remote-title', '1.3.0');
    release('1.4.0', needsReact20);
    const refused = gated('canary', 'remote-title', '1.4.0', '--percent', '10');
    assert.equal(refused.code, 1);
    assert.match(refused.err, /the compatibility gate refuses remote-title 1\.4\.0/);
    assert.match(refused.err, /remote-title 1\.4\.0 needs react \^20\.0\.0; the shell provides 19\.3\.1/);
    assert.doesNotMatch(refused.err, /jotai/);
    assert.match(refused.err, /--skip-compatibility rolls it out anyway/);
    assert.equal((await rollout()).remotes['remote-title']?.canary, undefined);
  });

  it('refuses it as stable and when promoting it; --skip-compatibility lets it through with a warning saying what was overridden', async () => {
    gated('stable', 'remote-title', '1.3.0');
    release('1.4.0', needsReact20);
    assert.equal(gated('stable', 'remote-title', '1.4.0').code, 1);
    assert.equal((await rollout()).remotes['remote-title']?.stable, '1.3.0');

    const forced = gated('canary', 'remote-title', '1.4.0', '--percent', '10', '--skip-compatibility');
    assert.equal(forced.code, 0);
    assert.match(forced.err, /warning: --skip-compatibility: rolling out remote-title 1\.4\.0 although the compatibility gate refuses it/);
    assert.match(forced.err, /remote-title 1\.4\.0 needs react \^20\.0\.0; the shell provides 19\.3\.1/);
    assert.deepEqual((await rollout()).remotes['remote-title']?.canary, { version: '1.4.0', percent: 10 });

    // Promote checks the canary it would make stable.
    const promoted = gated('promote', 'remote-title');
    assert.equal(promoted.code, 1);
    assert.match(promoted.err, /remote-title 1\.4\.0 needs react \^20\.0\.0; the shell provides 19\.3\.1/);
    assert.equal((await rollout()).remotes['remote-title']?.stable, '1.3.0');
    assert.equal(gated('promote', 'remote-title', '--skip-compatibility').code, 0);
    assert.equal((await rollout()).remotes['remote-title']?.stable, '1.4.0');
  });

  it('names a shared package the shell does not provide at all', () => {
    release('1.4.0', [...fits, shared('react-router', '^7.0.0')]);
    const refused = gated('stable', 'remote-title', '1.4.0');
    assert.equal(refused.code, 1);
    assert.match(refused.err, /remote-title 1\.4\.0 needs react-router \^7\.0\.0, which the shell does not share/);
  });

  it('refuses a release whose manifest cannot be read, unless overridden', async () => {
    mkdirSync(join(deploy, 'remote-title', '1.9.0'));
    writeFileSync(join(deploy, 'remote-title', '1.9.0', 'mf-manifest.json'), '{"name": "remote_title", "shared": ');
    await registerRelease(harness.db, 'remote-title', '1.9.0', null);
    const refused = gated('stable', 'remote-title', '1.9.0');
    assert.equal(refused.code, 1);
    assert.match(refused.err, /remote-title 1\.9\.0 has no readable mf-manifest\.json \(.*JSON.*\), so what it needs from the shell cannot be checked/);
    assert.deepEqual(await harness.readRollout(), { version: 0, rollout: null });
    const forced = gated('stable', 'remote-title', '1.9.0', '--skip-compatibility');
    assert.equal(forced.code, 0);
    assert.match(forced.err, /warning: --skip-compatibility/);
  });

  it('refuses everything when the shell manifest it was pointed at is missing', () => {
    rmSync(shellManifest);
    const refused = gated('stable', 'remote-title', '1.3.0');
    assert.equal(refused.code, 1);
    assert.match(refused.err, /the shell's manifest .*shell-mf-manifest\.json cannot be read \(it does not exist\)/);
  });

  it('checks against the shell of this checkout (its build, else its installed packages): the current code passes, a newer React does not', () => {
    // What the CLI reads without NETNET_SHELL_MANIFEST, read the same way here.
    const build = join(root, 'shell/dist/mf-manifest.json');
    const react = existsSync(build)
      ? (JSON.parse(readFileSync(build, 'utf8')) as { shared: { name: string; version: string }[] }).shared.find((entry) => entry.name === 'react')?.version
      : JSON.parse(readFileSync(createRequire(import.meta.url).resolve('react/package.json', { paths: [join(root, 'shell')] }), 'utf8')).version;
    release('1.4.0', sharedOfThisCode());
    const stable = cli('rollout', 'stable', 'remote-title', '1.4.0');
    assert.equal(stable.code, 0);
    assert.equal(stable.err, '');
    release('1.5.0', [shared('react', '^99.0.0')]);
    const refused = cli('rollout', 'canary', 'remote-title', '1.5.0', '--percent', '5');
    assert.equal(refused.code, 1);
    assert.ok(refused.err.includes(`remote-title 1.5.0 needs react ^99.0.0; the shell provides ${react}`), refused.err);
  });
});

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

  it('guard keeps running, reading the figures afresh on every pass, until SIGTERM', { timeout: 30_000 }, async () => {
    assert.equal(cli('rollout', 'stable', 'remote-title', '1.3.0').code, 0);
    assert.equal(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '10').code, 0);
    const running = harness.cliAsync('rollout', 'guard', '--interval', '0.2');
    const { child } = running;
    let out = '';
    child.stdout.on('data', (chunk) => void (out += chunk.toString()));
    const seen = (text: string) =>
      new Promise<void>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no "${text}" in: ${out}`)), 10_000);
        const check = () => {
          if (!out.includes(text)) return;
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
