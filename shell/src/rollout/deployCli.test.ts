/**
 * @jest-environment node
 */
// The release and rollout CLIs (scripts/release.mjs, scripts/rollout.mjs) as a release owner
// runs them, against a throwaway deploy tree. Releases are published with --from a fake build,
// so no webpack run is needed; the e2e rollout spec builds real ones.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    expect(rolloutFile().remotes['remote-title']).toEqual({ stable: '1.4.0', history: ['1.3.0'] });
    expect(cli('rollout', 'rollback', 'remote-title').code).toBe(0);
    expect(rolloutFile().remotes['remote-title']).toEqual({ stable: '1.3.0', history: [] });

    const nothingLeft = cli('rollout', 'rollback', 'remote-title');
    expect(nothingLeft.code).toBe(1);
    expect(nothingLeft.err).toContain('no canary and no earlier stable release to roll back to');
  });

  it('status --json is the map the shell reads: published releases for rolled-out remotes, own builds for the rest', () => {
    cli('rollout', 'stable', 'remote-title', '1.3.0');
    cli('rollout', 'canary', 'remote-title', '1.4.0', '--percent', '10');
    const map = JSON.parse(cli('rollout', 'status', '--json').out);
    expect(map.remotes['remote-title']).toEqual({
      stable: { version: '1.3.0', entry: 'http://localhost:8090/remote-title/1.3.0/mf-manifest.json' },
      canary: { version: '1.4.0', entry: 'http://localhost:8090/remote-title/1.4.0/mf-manifest.json', percent: 10 },
      entryTemplate: 'http://localhost:8090/remote-title/{version}/mf-manifest.json',
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

  it.each(['-1', '101', 'ten', ''])('refuses a canary percent of %j', (percent) => {
    cli('rollout', 'stable', 'remote-title', '1.3.0');
    const result = cli('rollout', 'canary', 'remote-title', '1.4.0', `--percent=${percent}`);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/percent must be a number from 0 to 100/);
    expect(rolloutFile().remotes['remote-title'].canary).toBeUndefined();
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
