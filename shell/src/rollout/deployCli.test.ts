/**
 * @jest-environment node
 */
// The release and rollout CLIs (control-plane/bin/release.mjs, control-plane/bin/rollout.mjs) as a release owner
// runs them, against a throwaway deploy tree. Releases are published with --from a fake build,
// so no webpack run is needed; the e2e rollout spec builds real ones.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');
let deploy: string;
let builds: string;

/** The environment the CLIs run with: this test's deploy tree, and nothing of the caller's that would change what they do. */
function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { NETNET_ENV: _env, NETNET_DEPLOY_URL: _url, NETNET_SHELL_MANIFEST: _shell, ...env } = process.env;
  return { ...env, NETNET_DEPLOY_DIR: deploy, ...extra };
}

function node(args: string[], extra: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, args, { cwd: root, env: cliEnv(extra), encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const cli = (script: 'release' | 'rollout', ...args: string[]) => node([join(root, 'control-plane', 'bin', `${script}.mjs`), ...args]);

const sha384 = (content: string | Buffer) => `sha384-${createHash('sha384').update(content).digest('base64')}`;

/** The same command, not waiting for it: for commands run at the same time. */
function cliAsync(script: 'release' | 'rollout', ...args: string[]): Promise<{ code: number | null; err: string }> {
  const child = spawn(process.execPath, [join(root, 'control-plane', 'bin', `${script}.mjs`), ...args], { cwd: root, env: cliEnv() });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, err })));
}

type Shared = { name: string; version: string; singleton: boolean; requiredVersion: string | false };
const shared = (name: string, requiredVersion: string, version = requiredVersion.replace(/^\D+/, '')): Shared => ({ name, version, singleton: true, requiredVersion });

/**
 * The `shared` list of a production build of the current code, as webpack.shared.js makes it:
 * the singletons at the ranges of shared/package.json, and @netnet/shared at ^its version.
 */
function sharedOfThisCode(): Shared[] {
  const pkg = JSON.parse(readFileSync(join(root, 'shared/package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };
  const singletons = { react: 'react', 'react/jsx-runtime': 'react', 'react-dom': 'react-dom', 'react-dom/client': 'react-dom', jotai: 'jotai' };
  return [
    ...Object.entries(singletons).map(([name, from]) => shared(name, pkg.dependencies[from]!)),
    shared(pkg.name, `^${pkg.version}`),
  ];
}

/** A stand-in for a production build of a remote at a version; its manifest declares `sharedList`. */
function fakeBuild(remote: string, version: string, name = remote.replace('-', '_'), sharedList: Shared[] = sharedOfThisCode()): string {
  const dir = join(builds, `${remote}-${version}-${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ name, metaData: { buildInfo: { buildVersion: version } }, shared: sharedList }));
  writeFileSync(join(dir, 'remoteEntry.js'), `/* ${remote} ${version} */`);
  return dir;
}

const publish = (remote: string, version: string) => cli('release', remote, '--version', version, '--from', fakeBuild(remote, version));
const rolloutFile = (env = 'local') => JSON.parse(readFileSync(join(deploy, `rollout.${env}.json`), 'utf8'));

beforeEach(() => {
  deploy = mkdtempSync(join(tmpdir(), 'netnet-deploy-'));
  builds = mkdtempSync(join(tmpdir(), 'netnet-builds-'));
});
afterEach(() => {
  rmSync(deploy, { recursive: true, force: true });
  rmSync(builds, { recursive: true, force: true });
});

describe('release', () => {
  it('publishes a build as deploy/<remote>/<version>/, and refuses to publish that version again', () => {
    const first = publish('remote-title', '1.4.0');
    expect(first.code).toBe(0);
    expect(first.out).toContain('published remote-title 1.4.0');
    expect(readdirSync(join(deploy, 'remote-title'))).toEqual(['1.4.0']);
    expect(existsSync(join(deploy, 'remote-title/1.4.0/remoteEntry.js'))).toBe(true);

    const again = publish('remote-title', '1.4.0');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/remote-title 1.4.0 is already published .* Releases are immutable/);
    expect(readFileSync(join(deploy, 'remote-title/1.4.0/remoteEntry.js'), 'utf8')).toBe('/* remote-title 1.4.0 */');
  });

  it("takes the remote's package.json version by default", () => {
    const { version } = JSON.parse(readFileSync(join(root, 'remote-search/package.json'), 'utf8')) as { version: string };
    const result = cli('release', 'remote-search', '--from', fakeBuild('remote-search', version));
    expect(result.code).toBe(0);
    expect(existsSync(join(deploy, 'remote-search', version, 'mf-manifest.json'))).toBe(true);
  });

  it.each([
    [['remote-nope', '--version', '1.0.0'], /Unknown remote "remote-nope"/],
    [['remote-title', '--version', '1.4'], /"1.4" is not a version/],
    [['remote-title', '--version', '../1.0.0'], /is not a version/],
    [['remote-title', '--version', '1.0.0', '--from', '/no/such/build'], /does not exist/],
    [['remote-title', '--bogus'], /Unknown option '--bogus'/],
  ])('refuses %j with a clear message', (args, message) => {
    const result = cli('release', ...args);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
    expect(existsSync(join(deploy, 'remote-title', '1.0.0'))).toBe(false);
  });

  it('refuses a build that is not what it claims to be, and leaves nothing behind', () => {
    const mislabelled = cli('release', 'remote-title', '--version', '1.5.0', '--from', fakeBuild('remote-title', '1.4.0'));
    expect(mislabelled.code).toBe(1);
    expect(mislabelled.err).toMatch(/was built as version 1.4.0, not 1.5.0/);
    const otherRemote = cli('release', 'remote-title', '--version', '1.5.0', '--from', fakeBuild('remote-title', '1.5.0', 'remote_search'));
    expect(otherRemote.err).toMatch(/holds remote_search, not remote-title/);
    expect(readdirSync(join(deploy, 'remote-title'))).toEqual([]);
  });
});

describe('rollout', () => {
  beforeEach(() => {
    for (const version of ['1.3.0', '1.4.0', '1.5.0']) expect(publish('remote-title', version).code).toBe(0);
  });

  it('status shows remotes served from their own build until something is rolled out', () => {
    const { code, out } = cli('rollout', 'status');
    expect(code).toBe(0);
    expect(out).toContain('environment local (nothing rolled out yet)');
    expect(out).toMatch(/release health: nothing reported yet \(.*health\.local\/ does not exist/);
    expect(out).toMatch(/remote-auth\s+own build \(http:\/\/localhost:3001\/mf-manifest.json\)/);
    expect(out).toMatch(/remote-title\s+own build .* published 1.3.0, 1.4.0, 1.5.0/);
  });

  it('stable → canary → promote → rollback, keeping a history', () => {
    expect(cli('rollout', 'stable', 'remote-title', '1.3.0').code).toBe(0);
    expect(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '10').code).toBe(0);
    expect(rolloutFile().remotes['remote-title']).toEqual({ stable: '1.3.0', canary: { version: '1.4.0', percent: 10 }, history: [] });

    expect(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '50').code).toBe(0);
    expect(rolloutFile().remotes['remote-title'].canary).toEqual({ version: '1.4.0', percent: 50 });
    expect(cli('rollout', 'status').out).toMatch(/remote-title\s+stable 1.3.0 · canary 1.4.0 at 50%/);

    expect(cli('rollout', 'promote', 'remote-title').code).toBe(0);
    expect(rolloutFile().remotes['remote-title']).toEqual({ stable: '1.4.0', history: ['1.3.0'] });

    // Rollback drops a canary first, then steps back through earlier stables.
    cli('rollout', 'canary', 'remote-title', '1.5.0', '--percent', '5');
    expect(cli('rollout', 'rollback', 'remote-title').code).toBe(0);
    // What was rolled back is remembered: QA cannot pin it by accident (see the map below).
    expect(rolloutFile().remotes['remote-title']).toEqual({ stable: '1.4.0', history: ['1.3.0'], rolledBack: ['1.5.0'] });
    expect(cli('rollout', 'rollback', 'remote-title').code).toBe(0);
    expect(rolloutFile().remotes['remote-title']).toEqual({ stable: '1.3.0', history: [], rolledBack: ['1.5.0', '1.4.0'] });
    // Choosing a rolled-back version again, on purpose, takes it off the list.
    expect(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '5').code).toBe(0);
    expect(rolloutFile().remotes['remote-title']).toEqual({
      stable: '1.3.0',
      canary: { version: '1.4.0', percent: 5 },
      history: [],
      rolledBack: ['1.5.0'],
    });
    expect(cli('rollout', 'rollback', 'remote-title').code).toBe(0);

    const nothingLeft = cli('rollout', 'rollback', 'remote-title');
    expect(nothingLeft.code).toBe(1);
    expect(nothingLeft.err).toContain('no canary and no earlier stable release to roll back to');
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
    expect(map.remotes['remote-title']).toEqual({
      stable: release('1.3.0'),
      canary: { ...release('1.4.0'), percent: 10 },
      pinnable: [release('1.3.0'), release('1.4.0'), release('1.5.0')],
    });
    expect(map.remotes['remote-auth'].stable.entry).toBe('http://localhost:3001/mf-manifest.json');
  });

  it('keeps environments apart', () => {
    expect(cli('rollout', 'stable', 'remote-title', '1.5.0', '--env', 'staging').code).toBe(0);
    expect(rolloutFile('staging').remotes['remote-title'].stable).toBe('1.5.0');
    expect(existsSync(join(deploy, 'rollout.local.json'))).toBe(false);
  });

  it.each([
    [['canary', 'remote-nope', '1.4.0', '--percent', '10'], /Unknown remote "remote-nope"/],
    [['canary', 'remote-title', '1.4.0', '--percent', '10'], /has no stable release in this environment yet/],
    [['stable', 'remote-title', '2.0.0'], /remote-title 2.0.0 is not published/],
    [['promote', 'remote-title'], /has no stable release/],
    [['status', '--env', 'Bad Env'], /not an environment name/],
    [['launch', 'remote-title'], /Unknown command "launch"/],
  ])('refuses %j with a clear message and writes nothing', (args, message) => {
    const result = cli('rollout', ...args);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
    expect(readdirSync(deploy).filter((name) => name.startsWith('rollout.'))).toEqual([]);
  });

  // The whole table of spellings is in control-plane/src/deploy/rolloutCommands.test.mjs; here the flag end to end.
  it.each(['-1', '101', '0x10', '1e1', '10.5'])('refuses a canary percent of %j', (percent) => {
    cli('rollout', 'stable', 'remote-title', '1.3.0');
    const result = cli('rollout', 'canary', 'remote-title', '1.4.0', `--percent=${percent}`);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`--percent takes a whole number from 0 to 100, like 10 (got "${percent}")`);
    expect(rolloutFile().remotes['remote-title'].canary).toBeUndefined();
  });

  it('takes a canary percent written with "%"', () => {
    cli('rollout', 'stable', 'remote-title', '1.3.0');
    expect(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent=10%').code).toBe(0);
    expect(rolloutFile().remotes['remote-title'].canary).toEqual({ version: '1.4.0', percent: 10 });
  });

  it('refuses a canary of the stable version, and of a version that is not published', () => {
    cli('rollout', 'stable', 'remote-title', '1.3.0');
    expect(cli('rollout', 'canary', 'remote-title', '1.3.0', '--percent', '10').err).toMatch(/is the stable release/);
    expect(cli('rollout', 'canary', 'remote-title', '9.0.0', '--percent', '10').err).toMatch(/9.0.0 is not published/);
  });

  it('reports a hand-broken rollout file instead of overwriting it', () => {
    writeFileSync(join(deploy, 'rollout.local.json'), '{"remotes": {"remote-title": {"stable": "latest"}}}');
    const result = cli('rollout', 'status');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/rollout.local.json is malformed: remote-title needs a "stable" version/);
  });
});

describe('release --from with links in the build', () => {
  it('copies a link that stays inside the build as a plain file', () => {
    const build = fakeBuild('remote-title', '2.0.0');
    symlinkSync(join(build, 'remoteEntry.js'), join(build, 'alias.js'));
    expect(cli('release', 'remote-title', '--version', '2.0.0', '--from', build).code).toBe(0);
    const alias = join(deploy, 'remote-title/2.0.0/alias.js');
    expect(lstatSync(alias).isSymbolicLink()).toBe(false);
    expect(readFileSync(alias, 'utf8')).toBe('/* remote-title 2.0.0 */');
  });

  it.each([
    ['a file', (secret: string) => secret],
    ['a folder', (secret: string) => join(secret, '..')],
  ])('refuses a build with a link to %s outside it, and publishes nothing', (_kind, target) => {
    const build = fakeBuild('remote-title', '2.0.0');
    const secret = join(builds, 'elsewhere', 'key.txt');
    mkdirSync(join(secret, '..'), { recursive: true });
    writeFileSync(secret, 'do not publish');
    symlinkSync(target(secret), join(build, 'leak'));
    const result = cli('release', 'remote-title', '--version', '2.0.0', '--from', build);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/leak in the build links outside it/);
    expect(readdirSync(join(deploy, 'remote-title'))).toEqual([]);
  });

  it('refuses a build whose link loops back to a folder holding it', () => {
    const build = fakeBuild('remote-title', '2.0.0');
    mkdirSync(join(build, 'assets'));
    symlinkSync(build, join(build, 'assets', 'up'));
    const result = cli('release', 'remote-title', '--version', '2.0.0', '--from', build);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/assets\/up in the build links back to a folder holding it/);
  });
});

describe('rollout commands at the same time', () => {
  // Releases and starting rollouts are written straight to disk: only the commands under test run.
  beforeEach(() => {
    for (const remote of ['remote-title', 'remote-search']) {
      for (const version of ['1.0.0', '1.1.0']) {
        mkdirSync(join(deploy, remote, version), { recursive: true });
        writeFileSync(join(deploy, remote, version, 'mf-manifest.json'), '{}');
      }
    }
  });
  const startFrom = (remotes: object) => writeFileSync(join(deploy, 'rollout.local.json'), JSON.stringify({ remotes }));

  it('never lose a change: 20 rounds of two commands at once', async () => {
    const losses: string[] = [];
    for (let round = 1; round <= 20; round += 1) {
      startFrom({ 'remote-title': { stable: '1.0.0', history: [] }, 'remote-search': { stable: '1.0.0', history: [] } });
      const [title, search] = await Promise.all([
        cliAsync('rollout', 'canary', 'remote-title', '1.1.0', '--percent', String(round)),
        cliAsync('rollout', 'canary', 'remote-search', '1.1.0', '--percent', String(round + 50)),
      ]);
      const remotes = rolloutFile().remotes;
      // Each command either landed, or failed loudly (non-zero, with a message) and changed nothing.
      if (title.code === 0) {
        if (remotes['remote-title'].canary?.percent !== round) losses.push(`round ${round}: remote-title's change lost`);
      } else expect(title.err).toMatch(/error: /);
      if (search.code === 0) {
        if (remotes['remote-search'].canary?.percent !== round + 50) losses.push(`round ${round}: remote-search's change lost`);
      } else expect(search.err).toMatch(/error: /);
    }
    expect(losses).toEqual([]);
    expect(readdirSync(deploy).filter((name) => /\.(lock|tmp)$/.test(name))).toEqual([]);
  }, 90_000);

  it('waits while another command holds the lock, then applies its change to the newer file', async () => {
    startFrom({ 'remote-title': { stable: '1.0.0', history: [] } });
    const lock = join(deploy, 'rollout.local.json.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
    const started = Date.now();
    const waiting = cliAsync('rollout', 'canary', 'remote-title', '1.1.0', '--percent', '25');
    await new Promise((done) => setTimeout(done, 700));
    // The holder's change lands while the other command waits.
    const held = rolloutFile();
    held.remotes['remote-title'].history = ['0.9.0'];
    writeFileSync(join(deploy, 'rollout.local.json'), JSON.stringify(held));
    rmSync(lock);
    const result = await waiting;
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(rolloutFile().remotes['remote-title']).toEqual({
      stable: '1.0.0',
      history: ['0.9.0'],
      canary: { version: '1.1.0', percent: 25 },
    });
  });

  it('takes over a lock left by a command that died', () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(
      join(deploy, 'rollout.local.json.lock'),
      JSON.stringify({ pid: dead, host: hostname(), since: '2026-01-01T00:00:00.000Z' }),
    );
    expect(cli('rollout', 'stable', 'remote-title', '1.0.0').code).toBe(0);
    expect(rolloutFile().remotes['remote-title'].stable).toBe('1.0.0');
    expect(existsSync(join(deploy, 'rollout.local.json.lock'))).toBe(false);
  });
});

describe('the compatibility gate', () => {
  // A shell build of our own making, so the versions it provides are known here exactly.
  let shellManifest: string;
  const gated = (...args: string[]) => node([join(root, 'control-plane', 'bin', 'rollout.mjs'), ...args], { NETNET_SHELL_MANIFEST: shellManifest });
  const release = (version: string, sharedList: Shared[]) =>
    expect(cli('release', 'remote-title', '--version', version, '--from', fakeBuild('remote-title', version, undefined, sharedList)).code).toBe(0);
  const fits = [shared('react', '^19.0.0'), shared('react-dom/client', '^19.3.0'), shared('jotai', '~2.20.0'), shared('@netnet/shared', '^1.0.0')];
  const needsReact20 = [shared('react', '^20.0.0'), shared('jotai', '^2.20.3')];

  beforeEach(() => {
    shellManifest = join(builds, 'shell-mf-manifest.json');
    const provides = { react: '19.3.1', 'react-dom': '19.3.1', 'react-dom/client': '19.3.1', 'react/jsx-runtime': '19.3.1', jotai: '2.20.3', '@netnet/shared': '1.0.0' };
    writeFileSync(shellManifest, JSON.stringify({ name: 'shell', shared: Object.entries(provides).map(([name, version]) => shared(name, `^${version}`, version)) }));
    release('1.3.0', fits);
  });

  it('lets a release through whose every requirement the shell meets, without a word', () => {
    const result = gated('stable', 'remote-title', '1.3.0');
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    expect(rolloutFile().remotes['remote-title'].stable).toBe('1.3.0');
  });

  it('refuses a canary that needs another version of a shared package, naming the package and both versions', () => {
    gated('stable', 'remote-title', '1.3.0');
    release('1.4.0', needsReact20);
    const refused = gated('canary', 'remote-title', '1.4.0', '--percent', '10');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('the compatibility gate refuses remote-title 1.4.0');
    expect(refused.err).toContain('remote-title 1.4.0 needs react ^20.0.0; the shell provides 19.3.1');
    expect(refused.err).not.toContain('jotai');
    expect(refused.err).toContain('--skip-compatibility rolls it out anyway');
    expect(rolloutFile().remotes['remote-title'].canary).toBeUndefined();
  });

  it('refuses it as stable and when promoting it; --skip-compatibility lets it through with a warning saying what was overridden', () => {
    gated('stable', 'remote-title', '1.3.0');
    release('1.4.0', needsReact20);
    expect(gated('stable', 'remote-title', '1.4.0').code).toBe(1);
    expect(rolloutFile().remotes['remote-title'].stable).toBe('1.3.0');

    const forced = gated('canary', 'remote-title', '1.4.0', '--percent', '10', '--skip-compatibility');
    expect(forced.code).toBe(0);
    expect(forced.err).toContain('warning: --skip-compatibility: rolling out remote-title 1.4.0 although the compatibility gate refuses it');
    expect(forced.err).toContain('remote-title 1.4.0 needs react ^20.0.0; the shell provides 19.3.1');
    expect(rolloutFile().remotes['remote-title'].canary).toEqual({ version: '1.4.0', percent: 10 });

    // Promote checks the canary it would make stable.
    const promoted = gated('promote', 'remote-title');
    expect(promoted.code).toBe(1);
    expect(promoted.err).toContain('remote-title 1.4.0 needs react ^20.0.0; the shell provides 19.3.1');
    expect(rolloutFile().remotes['remote-title'].stable).toBe('1.3.0');
    expect(gated('promote', 'remote-title', '--skip-compatibility').code).toBe(0);
    expect(rolloutFile().remotes['remote-title'].stable).toBe('1.4.0');
  });

  it('names a shared package the shell does not provide at all', () => {
    release('1.4.0', [...fits, shared('react-router', '^7.0.0')]);
    const refused = gated('stable', 'remote-title', '1.4.0');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('remote-title 1.4.0 needs react-router ^7.0.0, which the shell does not share');
  });

  it('refuses a release whose manifest cannot be read, unless overridden', () => {
    mkdirSync(join(deploy, 'remote-title', '1.9.0'));
    writeFileSync(join(deploy, 'remote-title', '1.9.0', 'mf-manifest.json'), '{"name": "remote_title", "shared": ');
    const refused = gated('stable', 'remote-title', '1.9.0');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/remote-title 1\.9\.0 has no readable mf-manifest\.json \(.*JSON.*\), so what it needs from the shell cannot be checked/);
    expect(existsSync(join(deploy, 'rollout.local.json'))).toBe(false);
    const forced = gated('stable', 'remote-title', '1.9.0', '--skip-compatibility');
    expect(forced.code).toBe(0);
    expect(forced.err).toContain('warning: --skip-compatibility');
  });

  it('refuses everything when the shell manifest it was pointed at is missing', () => {
    rmSync(shellManifest);
    const refused = gated('stable', 'remote-title', '1.3.0');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/the shell's manifest .*shell-mf-manifest\.json cannot be read \(it does not exist\)/);
  });

  it('checks against the shell of this checkout (its build, else its installed packages): the current code passes, a newer React does not', () => {
    // What the CLI reads without NETNET_SHELL_MANIFEST, read the same way here.
    const build = join(root, 'shell/dist/mf-manifest.json');
    const react = existsSync(build)
      ? (JSON.parse(readFileSync(build, 'utf8')) as { shared: Shared[] }).shared.find((entry) => entry.name === 'react')!.version
      : (JSON.parse(readFileSync(require.resolve('react/package.json', { paths: [join(root, 'shell')] }), 'utf8')) as { version: string }).version;
    release('1.4.0', sharedOfThisCode());
    expect(cli('rollout', 'stable', 'remote-title', '1.4.0')).toMatchObject({ code: 0, err: '' });
    release('1.5.0', [shared('react', '^99.0.0')]);
    const refused = cli('rollout', 'canary', 'remote-title', '1.5.0', '--percent', '5');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`remote-title 1.5.0 needs react ^99.0.0; the shell provides ${react}`);
  });
});

describe('release health', () => {
  type Report = { remote: string; release: string; channel: string; outcome?: string; vitals?: { lcp?: number } };
  let seq = 0;

  /** Appends batches to the environment's health store in the store's own log format (control-plane/src/health/store.mjs). */
  function reportsArrived(reports: Report[], at = Date.now(), env = 'local') {
    const dir = join(deploy, `health.${env}`);
    mkdirSync(dir, { recursive: true });
    seq += 1;
    writeFileSync(join(dir, 'reports.log'), `${JSON.stringify({ seq, at, reports })}\n`, { flag: 'a' });
  }
  const times = (count: number, make: (index: number) => Report) => Array.from({ length: count }, (_, index) => make(index));
  const setRollout = (rollout: object) => writeFileSync(join(deploy, 'rollout.local.json'), JSON.stringify(rollout));

  beforeEach(() => {
    seq = 0;
    const releases: [string, string][] = [['remote-title', '1.3.0'], ['remote-title', '1.4.0'], ['remote-search', '1.0.0'], ['remote-search', '1.1.0']];
    for (const [remote, version] of releases) {
      expect(publish(remote, version).code).toBe(0);
    }
  });

  it('status gives each release’s sessions, failures, rate and LCP p75, the guard’s verdict and its history', () => {
    setRollout({
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
    reportsArrived(times(40, (i) => ({ remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: i < 2 ? 'failed' : 'loaded', vitals: { lcp: 1000 + 50 * i } })), now - 120_000);
    // Canary: 12 sessions, 3 fell back, no LCP yet.
    reportsArrived(times(12, (i) => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: i < 3 ? 'fell-back' : 'loaded' })), now);
    // Older than the hour: not counted.
    reportsArrived(times(5, () => ({ remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'failed' })), now - 2 * 60 * 60_000);

    const { code, out } = cli('rollout', 'status');
    expect(code).toBe(0);
    expect(out).toMatch(/release health over the last 60 min \(.*health\.local\/, read \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)/);
    const lines = out.split('\n');
    const line = (index: number) => lines[index] ?? '';
    const title = lines.indexOf(lines.find((line) => line.startsWith('remote-title'))!);
    expect(line(title + 1)).toMatch(/^ {2}release\s+channel\s+sessions\s+failures\s+rate\s+fell back\s+LCP p75\s+LCP samples$/);
    const stable = /^ {2}1\.3\.0\s+stable\s+40\s+2\s+5\.00%\s+0\s+(\d+) ms\s+40$/.exec(line(title + 2));
    expect(stable).not.toBeNull();
    // Read from a histogram whose buckets are 4.4 % wide.
    expect(Math.abs(Number(stable![1]) - 2450) / 2450).toBeLessThan(0.025);
    expect(line(title + 3)).toMatch(/^ {2}1\.4\.0\s+canary\s+12\s+3\s+25\.00%\s+3\s+–\s+–$/);
    // The columns line up under their headings.
    expect(line(title + 2).indexOf('40') + 2).toBe(line(title + 1).indexOf('sessions') + 'sessions'.length);
    expect(line(title + 4)).toBe('  guard verdict: waiting: too few canary sessions yet (12)');
    expect(line(title + 5)).toBe('  guard history (latest first):');
    expect(line(title + 6)).toBe('    2026-11-20 09:15:00 UTC  rollback 1.2.0 at 25% (stable 1.3.0)');
    expect(line(title + 7)).toBe('      failure rate: canary 1.2.0 failed 9 of 30 sessions');

    const search = lines.indexOf(lines.find((line) => line.startsWith('remote-search'))!);
    expect(line(search + 2)).toMatch(/^ {2}1\.1\.0\s+stable\s+–\s+–\s+–\s+–\s+–\s+–$/);
    expect(line(search + 4)).toBe('    2026-11-20 08:00:00 UTC  widen 1.1.0 10% → 25% (stable 1.0.0)');
    expect(out).not.toMatch(/remote-search[\s\S]*guard verdict/);
  });

  it('guard --once rolls back a canary clearly worse than its stable, leaves a healthy one alone, and writes why', () => {
    expect(cli('rollout', 'stable', 'remote-title', '1.3.0').code).toBe(0);
    expect(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '10').code).toBe(0);
    expect(cli('rollout', 'stable', 'remote-search', '1.0.0').code).toBe(0);
    expect(cli('rollout', 'canary', 'remote-search', '1.1.0', '--percent', '10').code).toBe(0);
    reportsArrived([
      ...times(40, () => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'fell-back' })),
      ...times(40, () => ({ remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'loaded' })),
      ...times(40, () => ({ remote: 'remote-search', release: '1.1.0', channel: 'canary', outcome: 'loaded' })),
      ...times(40, () => ({ remote: 'remote-search', release: '1.0.0', channel: 'stable', outcome: 'loaded' })),
    ]);

    const pass = cli('rollout', 'guard', '--once');
    expect(pass.code).toBe(0);
    expect(pass.out.trim().split('\n')).toEqual([expect.stringMatching(/^local: rollback remote-title 1\.4\.0 — failure rate: canary 1\.4\.0 failed 40 of 40 sessions \(100\.00%\)/)]);
    const rollout = rolloutFile();
    expect(rollout.remotes['remote-title']).toEqual({ stable: '1.3.0', history: [], rolledBack: ['1.4.0'] });
    expect(rollout.remotes['remote-search'].canary).toEqual({ version: '1.1.0', percent: 10 });
    expect(rollout.guardHistory).toEqual([
      { at: expect.any(String), remote: 'remote-title', action: 'rollback', version: '1.4.0', stable: '1.3.0', from: 10, reason: expect.stringMatching(/^failure rate: canary 1\.4\.0 failed 40 of 40/) },
    ]);
    expect(cli('rollout', 'status').out).toMatch(/rollback 1\.4\.0 at 10% \(stable 1\.3\.0\)\n {6}failure rate: canary 1\.4\.0 failed 40 of 40/);

    const again = cli('rollout', 'guard', '--once');
    expect(again).toMatchObject({ code: 0, out: 'local: no change (1 canary checked).\n' });
  });

  it('guard --stages widens a healthy canary once its stage had its sessions', () => {
    const now = Date.now();
    setRollout({
      remotes: { 'remote-search': { stable: '1.0.0', canary: { version: '1.1.0', percent: 10 }, history: [] } },
      guardHistory: [{ at: new Date(now - 10 * 60_000).toISOString(), remote: 'remote-search', action: 'widen', version: '1.1.0', stable: '1.0.0', from: 5, to: 10, reason: 'healthy at 5%' }],
    });
    for (let minute = 8; minute >= 0; minute -= 1) {
      reportsArrived(
        [
          ...times(10, () => ({ remote: 'remote-search', release: '1.1.0', channel: 'canary', outcome: 'loaded' })),
          ...times(90, (i) => ({ remote: 'remote-search', release: '1.0.0', channel: 'stable', outcome: i === 0 && minute === 4 ? 'failed' : 'loaded' })),
        ],
        now - minute * 60_000,
      );
    }
    // Without --stages the guard only ever rolls back.
    expect(cli('rollout', 'guard', '--once').out).toBe('local: no change (1 canary checked).\n');
    expect(cli('rollout', 'guard', '--once', '--stages', '10,25,50', '--min-stage-sessions', '100').out).toBe('local: no change (1 canary checked).\n');
    const widened = cli('rollout', 'guard', '--once', '--stages', '10,25,50', '--min-stage-sessions', '50');
    expect(widened.code).toBe(0);
    expect(widened.out).toMatch(/^local: widen remote-search 1\.1\.0 — healthy at 10%: 90 sessions at this stage \(min 50\).*widened to 25%\n$/);
    expect(rolloutFile().remotes['remote-search'].canary).toEqual({ version: '1.1.0', percent: 25 });
    expect(rolloutFile().guardHistory.at(-1)).toMatchObject({ action: 'widen', from: 10, to: 25 });
  });

  it('guard keeps running, reading the figures afresh on every pass, until SIGTERM', async () => {
    expect(cli('rollout', 'stable', 'remote-title', '1.3.0').code).toBe(0);
    expect(cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '10').code).toBe(0);
    const child = spawn(process.execPath, [join(root, 'control-plane', 'bin', 'rollout.mjs'), 'guard', '--interval', '0.2'], { cwd: root, env: cliEnv() });
    let out = '';
    const seen = (text: string) =>
      new Promise<void>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no "${text}" in: ${out}`)), 10_000);
        const check = () => {
          if (!out.includes(text)) return;
          clearTimeout(timer);
          child.stdout.off('data', check);
          done();
        };
        child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
        child.stdout.on('data', check);
        check();
      });
    const exited = new Promise<number | null>((done) => child.on('close', done));
    try {
      await seen('guard for local: every 0.2 s, rollbacks only (no --stages)');
      await new Promise((done) => setTimeout(done, 500));
      expect(rolloutFile().remotes['remote-title'].canary).toEqual({ version: '1.4.0', percent: 10 });
      // The site's server records the reports while the guard runs.
      reportsArrived([
        ...times(40, () => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'fell-back' })),
        ...times(40, () => ({ remote: 'remote-title', release: '1.3.0', channel: 'stable', outcome: 'loaded' })),
      ]);
      await seen('local: rollback remote-title 1.4.0 — failure rate:');
      expect(rolloutFile().remotes['remote-title'].canary).toBeUndefined();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(out).toContain('guard for local stopped (SIGTERM).');
  }, 30_000);
});


describe('release health: what is refused', () => {
  it('status reports figures it cannot read instead of guessing', () => {
    mkdirSync(join(deploy, 'health.local'), { recursive: true });
    writeFileSync(join(deploy, 'health.local', 'figures.json'), '{"seq": 3, "figu');
    const result = cli('rollout', 'status');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/the release-health figures in .*health\.local cannot be read/);
  });

  it.each([
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
  ])('guard refuses %j with a clear message before its first pass', (args, message) => {
    const rollout = JSON.stringify({ remotes: { 'remote-title': { stable: '1.3.0', canary: { version: '1.4.0', percent: 10 }, history: [] } } });
    writeFileSync(join(deploy, 'rollout.local.json'), rollout);
    const result = cli('rollout', 'guard', ...args);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(message);
    expect(result.out).toBe('');
    expect(readFileSync(join(deploy, 'rollout.local.json'), 'utf8')).toBe(rollout);
  });
});
