// The compatibility gate of the rollout command (control-plane/bin/rollout.ts): a release goes out,
// as stable, as a canary or by promotion, only if the shell provides what its mf-manifest.json needs
// of the shared packages, unless --skip-compatibility. Checked against a shell manifest made here
// (NETNET_SHELL_MANIFEST) and against the shell of this checkout, as a release owner runs the
// commands against a throwaway deploy tree and a real PostgreSQL (./testing.ts), with fake builds.
// Run: node --import tsx --test control-plane/src/cli/compatibilityGate.test.ts
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { registerRelease } from '../store/releases.ts';
import { commandFixtures, root } from './testing.ts';

const { deploy, builds, harness, cli, rollout, shared, sharedOfThisCode, fakeBuild } = commandFixtures();

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
