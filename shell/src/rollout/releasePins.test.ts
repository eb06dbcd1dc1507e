/**
 * @jest-environment node
 */
// What a release records about its files, and which versions /remotes.json lets QA pin, with the
// real release and rollout CLIs and the real map builder against a throwaway deploy tree.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');
const SECRET = 'qa-secret-for-tests';
let deploy: string;
let builds: string;

function node(args: string[], extraEnv: Record<string, string> = {}) {
  const { NETNET_ENV: _env, NETNET_DEPLOY_URL: _url, NETNET_QA_SECRET: _secret, ...env } = process.env;
  const result = spawnSync(process.execPath, args, { cwd: root, env: { ...env, NETNET_DEPLOY_DIR: deploy, ...extraEnv }, encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
}
const cli = (script: 'release' | 'rollout' | 'qa-token', args: string[], env: Record<string, string> = {}) =>
  node([join(root, 'control-plane', 'bin', `${script}.mjs`), ...args], env);

function publish(version: string) {
  const dir = join(builds, version);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ name: 'remote_title', metaData: { buildInfo: { buildVersion: version } } }));
  writeFileSync(join(dir, 'remoteEntry.js'), `/* remote-title ${version} */`);
  writeFileSync(join(dir, 'assets', 'page.js'), 'console.log("page")');
  expect(cli('release', ['remote-title', '--version', version, '--from', dir]).code).toBe(0);
}

/** /remotes.json as the shell's server builds it for one request. */
function mapFor(environment: string, { token, secret }: { token?: string; secret?: string } = {}) {
  const script = `
    import { remoteMapFor } from ${JSON.stringify(join(root, 'control-plane/src/deploy/remoteMap.mjs'))};
    console.log(JSON.stringify(remoteMapFor(${JSON.stringify(environment)}, process.env, { qaToken: ${JSON.stringify(token)} })));`;
  const result = node(['--input-type=module', '-e', script], secret ? { NETNET_QA_SECRET: secret } : {});
  expect(result.err).toBe('');
  return JSON.parse(result.out) as { remotes: Record<string, { pinnable: { version: string }[] }> };
}
const pinnable = (map: ReturnType<typeof mapFor>) => map.remotes['remote-title']!.pinnable.map((pin) => pin.version);

const sha384 = (content: string | Buffer) => `sha384-${createHash('sha384').update(content).digest('base64')}`;

beforeEach(() => {
  deploy = mkdtempSync(join(tmpdir(), 'netnet-deploy-'));
  builds = mkdtempSync(join(tmpdir(), 'netnet-builds-'));
  for (const version of ['1.3.0', '1.4.0', '1.5.0']) publish(version);
});
afterEach(() => {
  rmSync(deploy, { recursive: true, force: true });
  rmSync(builds, { recursive: true, force: true });
});

it('a release records the SHA-384 of every file it publishes', () => {
  const record = JSON.parse(readFileSync(join(deploy, 'remote-title/1.4.0/integrity.json'), 'utf8'));
  expect(record).toEqual({
    algorithm: 'sha384',
    files: {
      'assets/page.js': sha384('console.log("page")'),
      'mf-manifest.json': sha384(JSON.stringify({ name: 'remote_title', metaData: { buildInfo: { buildVersion: '1.4.0' } } })),
      'remoteEntry.js': sha384('/* remote-title 1.4.0 */'),
    },
  });
});

it('a rolled-back version is not pinnable; an environment can allow it', () => {
  cli('rollout', ['stable', 'remote-title', '1.3.0']);
  cli('rollout', ['canary', 'remote-title', '1.5.0', '--percent', '10']);
  expect(pinnable(mapFor('local'))).toEqual(['1.3.0', '1.4.0', '1.5.0']);
  expect(cli('rollout', ['rollback', 'remote-title']).code).toBe(0);
  expect(pinnable(mapFor('local'))).toEqual(['1.3.0', '1.4.0']);

  const file = join(deploy, 'rollout.local.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), pinRolledBack: true }));
  expect(pinnable(mapFor('local'))).toEqual(['1.3.0', '1.4.0', '1.5.0']);
});

describe('in production', () => {
  const token = (args: string[] = [], secret = SECRET) => cli('qa-token', ['--env', 'production', ...args], { NETNET_QA_SECRET: secret }).out.trim();

  it('pins need a QA token signed with the server secret', () => {
    cli('rollout', ['stable', 'remote-title', '1.3.0', '--env', 'production']);
    expect(pinnable(mapFor('production', { secret: SECRET }))).toEqual([]);
    expect(pinnable(mapFor('production', { secret: SECRET, token: token() }))).toEqual(['1.3.0', '1.4.0', '1.5.0']);
  });

  it.each([
    ['signed with another secret', () => token([], 'not-the-secret')],
    ['for another environment', () => cli('qa-token', ['--env', 'staging'], { NETNET_QA_SECRET: SECRET }).out.trim()],
    ['altered', () => token().replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))],
    ['expired', () => `1000000000.${token().split('.')[1]}`],
    ['junk', () => 'x'.repeat(5000)],
  ])('a token %s lists nothing', (_what, make) => {
    expect(pinnable(mapFor('production', { secret: SECRET, token: make() }))).toEqual([]);
  });

  it('with no secret on the server there are no pins at all', () => {
    expect(pinnable(mapFor('production', { token: token() }))).toEqual([]);
  });

  it('"production": true in the rollout file marks any environment production', () => {
    cli('rollout', ['stable', 'remote-title', '1.3.0', '--env', 'live']);
    const file = join(deploy, 'rollout.live.json');
    expect(pinnable(mapFor('live', { secret: SECRET }))).toEqual(['1.3.0', '1.4.0', '1.5.0']);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), production: true }));
    expect(pinnable(mapFor('live', { secret: SECRET }))).toEqual([]);
  });

  it('a token lives at most 24 hours, and is refused without the secret', () => {
    expect(cli('qa-token', ['--hours', '25'], { NETNET_QA_SECRET: SECRET }).err).toMatch(/--hours must be a number above 0 and at most 24/);
    expect(cli('qa-token', []).err).toMatch(/NETNET_QA_SECRET is not set/);
  });
});
