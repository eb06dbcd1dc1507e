/**
 * @jest-environment node
 */
// The release and rollout CLIs (scripts/release.mjs, scripts/rollout.mjs) as a release owner
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

function node(args: string[]) {
  const { NETNET_ENV: _env, NETNET_DEPLOY_URL: _url, ...env } = process.env;
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    env: { ...env, NETNET_DEPLOY_DIR: deploy },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const cli = (script: 'release' | 'rollout', ...args: string[]) => node([join(root, 'scripts', `${script}.mjs`), ...args]);

const sha384 = (content: string | Buffer) => `sha384-${createHash('sha384').update(content).digest('base64')}`;

/** The same command, not waiting for it: for commands run at the same time. */
function cliAsync(script: 'release' | 'rollout', ...args: string[]): Promise<{ code: number | null; err: string }> {
  const { NETNET_ENV: _env, NETNET_DEPLOY_URL: _url, ...env } = process.env;
  const child = spawn(process.execPath, [join(root, 'scripts', `${script}.mjs`), ...args], {
    cwd: root,
    env: { ...env, NETNET_DEPLOY_DIR: deploy },
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, err })));
}

/** A stand-in for a production build of a remote at a version. */
function fakeBuild(remote: string, version: string, name = remote.replace('-', '_')): string {
  const dir = join(builds, `${remote}-${version}-${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ name, metaData: { buildInfo: { buildVersion: version } } }));
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

  // The whole table of spellings is in scripts/deploy/rolloutCommands.test.mjs; here the flag end to end.
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
