// What a release records about its files, and which versions /remotes.json lets QA pin, with the
// real release, rollout and QA-token commands and the real map builder against a throwaway deploy
// tree and a real PostgreSQL (./testing.ts).
// Run: node --import tsx --test control-plane/src/cli/releasePins.test.ts
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { readConfig } from '@netnet/server-kit';
import site from '@netnet/site';
import { standingQaTokens } from '../store/qaTokens.ts';
import { listReleases } from '../store/releases.ts';
import { updateRollout, type Rollout } from '../store/rollouts.ts';
import { cliHarness, type CliHarness } from './testing.ts';
import { newQaTokenId, QA_SECRET_VARIABLES, signQaToken } from '../rollouts/qaToken.ts';
import { remoteMapFor, type RemoteMap } from '../rollouts/remoteMap.ts';

const SECRET = 'qa-secret-for-tests';
let deploy: string;
let builds: string;
/** @type {Awaited<ReturnType<typeof cliHarness>>} */
let harness: CliHarness;

before(async () => {
  harness = await cliHarness({ deployDir: () => deploy, strip: ['NETNET_QA_SECRET'] });
});
after(() => harness.close());

const cli = (script: 'release' | 'rollout' | 'qa-token', args: string[], env: NodeJS.ProcessEnv = {}) => harness.cliWith(env, script, ...args);

function publish(version: string) {
  const dir = join(builds, version);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ name: 'remote_title', metaData: { buildInfo: { buildVersion: version } } }));
  writeFileSync(join(dir, 'remoteEntry.js'), `/* remote-title ${version} */`);
  writeFileSync(join(dir, 'assets', 'page.js'), 'console.log("page")');
  const result = cli('release', ['remote-title', '--version', version, '--from', dir]);
  assert.equal(result.code, 0, result.err);
}

/** /remotes.json as the shell's server builds it for one request, from what the store holds. */
async function mapFor(environment: string, { token, secret }: { token?: string; secret?: string } = {}) {
  const [{ rollout }, releases, qaTokens] = await Promise.all([harness.readRollout(environment), listReleases(harness.db), standingQaTokens(harness.db, environment)]);
  const settings = readConfig({ ...site.MAP_VARIABLES, ...QA_SECRET_VARIABLES }, harness.cliEnv(secret ? { NETNET_QA_SECRET: secret } : {}));
  return remoteMapFor(environment, { rollout, releases, qaTokens }, settings, { qaToken: token });
}
const pinnable = (map: RemoteMap) => map.remotes['remote-title']?.pinnable.map((pin) => pin.version);

/** A change of the map's pin policy, as an operator makes it in the store. */
const policy = (environment: string, flags: Partial<Rollout>) => updateRollout(harness.db, environment, (map) => ({ ...map, ...flags }), { actor: 'test', action: 'policy' });

const sha384 = (content: string | Buffer) => `sha384-${createHash('sha384').update(content).digest('base64')}`;

beforeEach(async () => {
  deploy = mkdtempSync(join(tmpdir(), 'netnet-deploy-'));
  builds = mkdtempSync(join(tmpdir(), 'netnet-builds-'));
  await harness.reset();
  for (const version of ['1.3.0', '1.4.0', '1.5.0']) publish(version);
});
afterEach(() => {
  rmSync(deploy, { recursive: true, force: true });
  rmSync(builds, { recursive: true, force: true });
});

it('a release records the SHA-384 of every file it publishes, and the store the hashes the map hands out', async () => {
  const record = JSON.parse(readFileSync(join(deploy, 'remote-title/1.4.0/integrity.json'), 'utf8'));
  assert.deepEqual(record, {
    algorithm: 'sha384',
    files: {
      'assets/page.js': sha384('console.log("page")'),
      'mf-manifest.json': sha384(JSON.stringify({ name: 'remote_title', metaData: { buildInfo: { buildVersion: '1.4.0' } } })),
      'remoteEntry.js': sha384('/* remote-title 1.4.0 */'),
    },
  });
  const released = (await listReleases(harness.db)).get('remote-title')?.find((release) => release.version === '1.4.0');
  assert.deepEqual(released?.integrity, {
    'mf-manifest.json': record.files['mf-manifest.json'],
    'remoteEntry.js': record.files['remoteEntry.js'],
    'integrity.json': sha384(readFileSync(join(deploy, 'remote-title/1.4.0/integrity.json'))),
  });
});

it('a rolled-back version is not pinnable; an environment can allow it', async () => {
  cli('rollout', ['stable', 'remote-title', '1.3.0']);
  cli('rollout', ['canary', 'remote-title', '1.5.0', '--percent', '10']);
  assert.deepEqual(pinnable(await mapFor('local')), ['1.3.0', '1.4.0', '1.5.0']);
  assert.equal(cli('rollout', ['rollback', 'remote-title']).code, 0);
  assert.deepEqual(pinnable(await mapFor('local')), ['1.3.0', '1.4.0']);

  await policy('local', { pinRolledBack: true });
  assert.deepEqual(pinnable(await mapFor('local')), ['1.3.0', '1.4.0', '1.5.0']);
});

describe('in production', () => {
  const token = (args: string[] = [], secret = SECRET) => cli('qa-token', ['--for', 'qa@team', '--env', 'production', ...args], { NETNET_QA_SECRET: secret }).out.trim();

  it('pins need a QA token signed with the server secret', async () => {
    cli('rollout', ['stable', 'remote-title', '1.3.0', '--env', 'production']);
    assert.deepEqual(pinnable(await mapFor('production', { secret: SECRET })), []);
    assert.deepEqual(pinnable(await mapFor('production', { secret: SECRET, token: token() })), ['1.3.0', '1.4.0', '1.5.0']);
  });

  const tokens: [string, () => string][] = [
    ['signed with another secret', () => token([], 'not-the-secret')],
    ['for another environment', () => cli('qa-token', ['--for', 'qa@team', '--env', 'staging'], { NETNET_QA_SECRET: SECRET }).out.trim()],
    ['altered', () => token().replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'))],
    ['expired', () => `1000000000.${token().split('.').slice(1).join('.')}`],
    ['signed with the secret but never recorded', () => signQaToken({ secret: SECRET, environment: 'production', id: newQaTokenId(), expires: new Date(Date.now() + 3600_000) })],
    ['junk', () => 'x'.repeat(5000)],
  ];
  for (const [what, make] of tokens) {
    it(`a token ${what} lists nothing`, async () => {
      assert.deepEqual(pinnable(await mapFor('production', { secret: SECRET, token: make() })), []);
    });
  }

  it('with no secret on the server there are no pins at all', async () => {
    assert.deepEqual(pinnable(await mapFor('production', { token: token() })), []);
  });

  it('"production": true in the rollout map marks any environment production', async () => {
    cli('rollout', ['stable', 'remote-title', '1.3.0', '--env', 'live']);
    assert.deepEqual(pinnable(await mapFor('live', { secret: SECRET })), ['1.3.0', '1.4.0', '1.5.0']);
    await policy('live', { production: true });
    assert.deepEqual(pinnable(await mapFor('live', { secret: SECRET })), []);
  });

  it('a token lives at most 24 hours, names who it is for, and is refused without the secret', () => {
    assert.match(cli('qa-token', ['--for', 'qa@team', '--hours', '25'], { NETNET_QA_SECRET: SECRET }).err, /--hours must be a number above 0 and at most 24/);
    assert.match(cli('qa-token', [], { NETNET_QA_SECRET: SECRET }).err, /--for <who> names the person the token is for/);
    assert.match(cli('qa-token', ['--for', 'qa@team']).err, /NETNET_QA_SECRET is not set/);
  });

  it('a token is revoked by itself: its pins go, the others stay, and the audit trail names both changes', async () => {
    cli('rollout', ['stable', 'remote-title', '1.3.0', '--env', 'production']);
    const kept = token();
    const made = cli('qa-token', ['--for', 'ana@qa', '--env', 'production'], { NETNET_QA_SECRET: SECRET });
    const revoked = made.out.trim();
    const id = revoked.split('.')[1]!;
    assert.match(made.err, new RegExp(`QA token ${id} for ana@qa in production`));
    assert.deepEqual(pinnable(await mapFor('production', { secret: SECRET, token: revoked })), ['1.3.0', '1.4.0', '1.5.0']);
    const revoke = cli('qa-token', ['revoke', id]);
    assert.equal(revoke.code, 0, revoke.err);
    assert.deepEqual(pinnable(await mapFor('production', { secret: SECRET, token: revoked })), []);
    assert.deepEqual(pinnable(await mapFor('production', { secret: SECRET, token: kept })), ['1.3.0', '1.4.0', '1.5.0']);
    assert.match(cli('qa-token', ['revoke', id]).err, /No standing QA token/);
    assert.match(cli('qa-token', ['list', '--env', 'production']).out, new RegExp(`${id}  for ana@qa  by .+  revoked `));
    const { rows } = await harness.db.query<{ action: string; role: string; subject: string }>("SELECT action, role, subject FROM audit WHERE subject = $1 ORDER BY id", [`qa-token ${id}`]);
    assert.deepEqual(rows, [
      { action: 'create', role: 'netnet_cli', subject: `qa-token ${id}` },
      { action: 'revoke', role: 'netnet_cli', subject: `qa-token ${id}` },
    ]);
  });
});
