// The release command (control-plane/bin/release.ts) as a release owner runs it, against a
// throwaway deploy tree and a real PostgreSQL (./testing.ts): publishing and immutability, the
// version it takes and the arguments and builds it refuses, links in the build, and the embedded
// database the first command starts where no DATABASE_URL is set. Releases are published with
// --from a fake build, so no webpack run is needed; the e2e rollout spec builds real ones.
// Run: node --import tsx --test control-plane/src/cli/release.test.ts
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDatabase, readStoreSettings } from '../store/database.ts';
import { embeddedDir, startEmbedded } from '../store/embedded.ts';
import { readRollout } from '../store/rollouts.ts';
import { commandFixtures, root } from './testing.ts';

const { deploy, builds, harness, cli, registered, sha384, fakeBuild, publish } = commandFixtures();

describe('release', () => {
  it('publishes a build into the store, its files with it, keeps a working copy in deploy/<remote>/<version>/, and refuses to publish that version again', async () => {
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
    const files = await harness.db.query<{ path: string }>("SELECT path FROM release_files WHERE remote = 'remote-title' AND version = '1.4.0' ORDER BY path");
    assert.deepEqual(files.rows.map((row) => row.path), readdirSync(join(deploy, 'remote-title/1.4.0')).sort());

    // The store decides, not the folder: gone from here, it is still published.
    rmSync(join(deploy, 'remote-title'), { recursive: true });
    const again = publish('remote-title', '1.4.0');
    assert.equal(again.code, 1);
    assert.match(again.err, /remote-title 1.4.0 is already published\. Releases are immutable/);
    assert.equal(existsSync(join(deploy, 'remote-title/1.4.0')), false);
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

describe('the embedded database', () => {
  it('is started by the first command that needs it, in <deploy>/.database, and left running for the next', async () => {
    // No DATABASE_URL: what a release owner gets in a checkout where the site is not running.
    const env = { DATABASE_URL: '', DATABASE_URL_CLI: '' };
    const local = readStoreSettings({ NETNET_DEPLOY_DIR: deploy });
    try {
      const published = harness.cliWith(env, 'release', 'remote-title', '--version', '1.3.0', '--from', fakeBuild('remote-title', '1.3.0'));
      assert.equal(published.code, 0, published.err);
      assert.equal(existsSync(join(embeddedDir(local.deployDir), 'PG_VERSION')), true);
      assert.equal(harness.cliWith(env, 'rollout', 'stable', 'remote-title', '1.3.0').code, 0);
      assert.match(harness.cliWith(env, 'rollout', 'status').out, /remote-title\s+stable 1\.3\.0 · published 1\.3\.0\n/);
      const running = await startEmbedded(local.deployDir);
      assert.equal(running.startedHere, false, 'the commands left it running');
      const store = await openDatabase({ store: local, max: 1 });
      try {
        assert.deepEqual((await readRollout(store.pool, 'local')).rollout, { remotes: { 'remote-title': { stable: '1.3.0', history: [] } } });
      } finally {
        await store.close();
      }
      // The test's own database saw none of it.
      assert.deepEqual(await registered(), []);
    } finally {
      if (existsSync(join(embeddedDir(local.deployDir), 'PG_VERSION'))) await (await startEmbedded(local.deployDir)).stop();
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
