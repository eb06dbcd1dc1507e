// The control-plane API (./server.ts) over a real PostgreSQL (store/testDatabase.ts) and the real
// upload verification (releases/upload.ts): who may do what (every token × every remote × every
// action × two environments: nothing changes outside a token's scope), 401 for no, unknown, wrong
// or revoked tokens, 409 for a change that lost the race, publish retried (200) or with other
// bytes (409), and the connection limits.
// Run: node --import tsx --test control-plane/src/api/api.test.ts
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, beforeEach, describe, it } from 'node:test';
import type pg from 'pg';
import { publishUpload } from '../releases/upload.ts';
import site from '@netnet/site';
import type { Database } from '../store/database.ts';
import { registerRelease } from '../store/releases.ts';
import { updateRollout, type Rollout } from '../store/rollouts.ts';
import { testDatabase, type TestDatabase } from '../store/testDatabase.ts';
import { packDirectory, tarOf } from './packArchive.ts';
import { createApi, type ApiLimits } from './server.ts';
import { createToken, revokeToken, type Scope } from './tokens.ts';

let db: TestDatabase;
/** The same database as the API's own role sees it (store/roles.ts): every call below runs with its rights. */
let apiDb: Database;
let builds: string;
const servers: FastifyInstance[] = [];

before(async () => {
  db = await testDatabase();
  apiDb = await db.as('api', { max: 8 });
  builds = mkdtempSync(join(tmpdir(), 'netnet-api-builds-'));
});
after(async () => {
  for (const server of servers) server.server.closeAllConnections();
  await Promise.all(servers.map((server) => server.close()));
  await apiDb.close();
  await db.close();
  rmSync(builds, { recursive: true, force: true });
});

/** The environment the API sees: this test's deploy folder. */
const apiEnv = () => ({ ...process.env, NETNET_DEPLOY_DIR: db.dir, HOST: '127.0.0.1' });

/** An API on a free port of 127.0.0.1; its base URL. */
async function startApi({ database = apiDb, limits = {} }: { database?: Database; limits?: Partial<ApiLimits> } = {}): Promise<string> {
  const server = await createApi({ database, publish: publishUpload, env: apiEnv(), limits });
  servers.push(server);
  return server.listen({ port: 0, host: '127.0.0.1' });
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function request(
  base: string,
  method: string,
  path: string,
  { token, json, archive, contentType = 'application/gzip', headers = {} }: { token?: string; json?: unknown; archive?: Buffer; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const sent: Record<string, string> = { ...headers };
  if (token !== undefined) sent.Authorization = `Bearer ${token}`;
  let body: string | Buffer | undefined;
  if (json !== undefined) {
    sent['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (archive) {
    sent['Content-Type'] = contentType;
    body = archive;
  }
  const response = await fetch(`${base}${path}`, { method, headers: sent, body });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : { text } };
}

/** A remote's build as a test makes it: its manifest, an entry, a page chunk (`extra` changes its bytes). */
function build(remote: string, version: string, extra = '', { server = false } = {}): string {
  const dir = join(builds, `${remote}-${version}-${extra.length}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ name: site.federationName(remote), metaData: { buildInfo: { buildVersion: version } } }));
  writeFileSync(join(dir, 'remoteEntry.js'), `/* ${remote} ${version} */`);
  writeFileSync(join(dir, 'assets', 'page.js'), `console.log(${JSON.stringify(extra)});`);
  if (server) {
    mkdirSync(join(dir, 'server'));
    // The smallest container the upload's check renders: every page it exposes renders nothing.
    writeFileSync(join(dir, 'server', 'remoteEntry.js'), 'module.exports = { init() {}, get() { return Promise.resolve(() => ({ default: () => null })); } };');
  }
  return dir;
}

/** A release already in the origin folder and the store, as `npm run release` leaves it. */
async function published(remote: string, version: string) {
  const from = build(remote, version);
  const target = join(db.dir, remote, version);
  mkdirSync(join(db.dir, remote), { recursive: true });
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target);
  for (const file of ['mf-manifest.json', 'remoteEntry.js']) writeFileSync(join(target, file), readText(join(from, file)));
  await registerRelease(db.pool, remote, version, null);
}
const readText = (path: string) => readFileSync(path, 'utf8');

const ENVIRONMENTS = ['production', 'staging'];

/** Every remote stable 1.0.0 with a canary 1.1.0 at 5 %, in both environments. */
const startingMap = (): Rollout => ({
  remotes: Object.fromEntries(site.remotes.map((remote) => [remote, { stable: '1.0.0', canary: { version: '1.1.0', percent: 5 }, history: [] }])),
});
async function resetMaps() {
  for (const environment of ENVIRONMENTS) await updateRollout(db.pool, environment, () => startingMap(), { actor: 'test', action: 'reset' });
}

/** Everything a call could change: every map, the audit trail, the releases and the origin folder. */
async function snapshot(): Promise<string> {
  const rows = async (sql: string) => (await db.pool.query(sql)).rows;
  return JSON.stringify({
    rollouts: await rows('SELECT environment, version, map FROM rollouts ORDER BY environment'),
    audit: await rows('SELECT count(*)::int AS entries, max(id)::int AS last FROM audit'),
    releases: await rows('SELECT remote, version, integrity, published_by FROM releases ORDER BY remote, version'),
    origin: site.remotes.map((remote) => {
      try {
        return [remote, readdirSync(join(db.dir, remote)).sort()];
      } catch {
        return [remote, []];
      }
    }),
  });
}

const lastAudit = async () =>
  (await db.pool.query<{ actor: string; action: string; remote: string | null }>('SELECT actor, action, remote FROM audit ORDER BY id DESC LIMIT 1')).rows[0];

// The matrix's tokens: each scope written out, and what it should allow worked out below by the
// rule the docs state, independently of tokens.ts.
const TOKENS: Record<string, Scope> = {
  'title-ci': { remotes: ['remote-title'], environments: ['production'], actions: ['publish', 'canary', 'promote', 'status'] },
  'search-team': { remotes: ['remote-search'], environments: ['*'], actions: ['*'] },
  'staging-ops': { remotes: ['*'], environments: ['staging'], actions: ['stable', 'rollback', 'pin', 'status'] },
  'reader': { remotes: ['*'], environments: ['*'], actions: ['status'] },
  'browse-auth': { remotes: ['remote-auth', 'remote-browse'], environments: ['production', 'staging'], actions: ['publish', 'stable', 'canary', 'promote', 'rollback', 'pin'] },
};
const has = (list: string[], item: string) => list.includes('*') || list.includes(item);
/** Publishing names no environment; the pin policy is every remote's, so it takes "*" remotes. */
function mayDo(scope: Scope, action: string, remote: string | null, environment: string | null): boolean {
  if (!has(scope.actions, action)) return false;
  if (environment !== null && !has(scope.environments, environment)) return false;
  return remote === null ? scope.remotes.includes('*') : has(scope.remotes, remote);
}

describe('the control-plane API', { timeout: 600_000 }, () => {
  let base: string;
  const tokens: Record<string, string> = {};
  let admin: string;
  let versions = 0;

  before(async () => {
    base = await startApi();
    for (const [name, scope] of Object.entries(TOKENS)) tokens[name] = await createToken(db.pool, name, scope, 'test');
    admin = await createToken(db.pool, 'admin', { remotes: ['*'], environments: ['*'], actions: ['*'] }, 'test');
    for (const remote of site.remotes) for (const version of ['1.0.0', '1.1.0', '1.2.0']) await published(remote, version);
  });
  beforeEach(resetMaps);

  it('serves its own description without a token', async () => {
    const response = await fetch(`${base}/openapi.yaml`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /^openapi: 3\.0\.\d+$/m);
  });

  it('answers every call its description (control-plane/openapi.yaml) lists, and those only', async () => {
    const description = readFileSync(join(import.meta.dirname, '..', '..', 'openapi.yaml'), 'utf8');
    const operations: [string, string][] = [];
    let path = '';
    for (const line of description.split('\n')) {
      const pathLine = /^ {2}(\/v1\/[^:]+):$/.exec(line);
      if (pathLine) path = pathLine[1]!;
      else if (/^ {2}\S/.test(line)) path = '';
      const method = /^ {4}(get|put|post|delete|patch):$/.exec(line);
      if (path && method) operations.push([method[1]!.toUpperCase(), path]);
    }
    assert.equal(operations.length, 7, JSON.stringify(operations));
    const sample = { remote: 'remote-title', version: '1.0.0', environment: 'production' };
    for (const [method, template] of operations) {
      const concrete = template.replace(/\{(\w+)\}/g, (_, name: keyof typeof sample) => sample[name]);
      const answer = await request(base, method, concrete, { token: tokens.reader });
      // Known to the server: refused for the reader's scope (403) or answered (status), never 404 or 405.
      assert.ok([200, 403].includes(answer.status), `${method} ${concrete}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    for (const [method, path] of [['DELETE', '/v1/environments/production/status'], ['GET', '/v1/environments/production/remotes/remote-title/canary']]) {
      assert.equal((await request(base, method!, path!, { token: tokens.reader })).status, 405, `${method} ${path}`);
    }
    assert.equal((await request(base, 'GET', '/v1/releases', { token: tokens.reader })).status, 404);
  });

  it('every token × every remote × every action × two environments: out of scope is 403 and changes nothing', async () => {
    let refused = 0;
    let allowed = 0;
    const outside: string[] = [];
    for (const [name, scope] of Object.entries(TOKENS)) {
      await resetMaps();
      const token = tokens[name]!;
      // One call of each action per remote and environment, in an order that lets each allowed one land.
      const calls: { action: string; remote: string | null; environment: string | null; run: () => Promise<Answer> }[] = [];
      for (const remote of site.remotes) {
        const version = `3.0.0-m.${(versions += 1)}`;
        calls.push({
          action: 'publish',
          remote,
          environment: null,
          run: () => request(base, 'POST', `/v1/remotes/${remote}/releases/${version}?browserOnly=true`, { token, archive: packDirectory(build(remote, version)) }),
        });
        for (const environment of ENVIRONMENTS) {
          const at = `/v1/environments/${environment}/remotes/${remote}`;
          calls.push(
            { action: 'stable', remote, environment, run: () => request(base, 'PUT', `${at}/stable`, { token, json: { version: '1.2.0' } }) },
            { action: 'canary', remote, environment, run: () => request(base, 'PUT', `${at}/canary`, { token, json: { version: '1.1.0', percent: 10 } }) },
            { action: 'promote', remote, environment, run: () => request(base, 'POST', `${at}/promote`, { token }) },
            { action: 'rollback', remote, environment, run: () => request(base, 'POST', `${at}/rollback`, { token }) },
          );
        }
      }
      for (const environment of ENVIRONMENTS) {
        calls.push(
          { action: 'pin', remote: null, environment, run: () => request(base, 'PUT', `/v1/environments/${environment}/pin-policy`, { token, json: { pinRolledBack: true } }) },
          { action: 'status', remote: null, environment, run: () => request(base, 'GET', `/v1/environments/${environment}/status`, { token }) },
        );
      }
      for (const { action, remote, environment, run } of calls) {
        const where = `${name} ${action} ${remote ?? '(every remote)'} ${environment ?? '(no environment)'}`;
        const before = await snapshot();
        const answer = await run();
        // Status names no remote: it answers for the remotes the token covers, whichever they are.
        const expected = action === 'status' ? mayDo({ ...scope, remotes: ['*'] }, 'status', null, environment) : mayDo(scope, action, remote, environment);
        if (!expected) {
          refused += 1;
          assert.equal(answer.status, 403, `${where}: ${JSON.stringify(answer.body)}`);
          assert.match(String(answer.body.error), new RegExp(`^the token "${name}" may not ${action} .*; nothing was changed\\.$`));
          if ((await snapshot()) !== before) outside.push(where);
          continue;
        }
        allowed += 1;
        assert.ok([200, 201].includes(answer.status), `${where}: ${answer.status} ${JSON.stringify(answer.body)}`);
        if (action === 'status') {
          assert.deepEqual(Object.keys(answer.body.remotes as object), site.remotes.filter((known) => has(scope.remotes, known)), where);
          assert.equal((await snapshot()), before, `${where}: status changes nothing`);
        } else if (action === 'publish') {
          const { rows } = await db.pool.query('SELECT published_by FROM releases WHERE remote = $1 AND version = $2', [remote, answer.body.version]);
          assert.deepEqual(rows, [{ published_by: `token:${name}` }], where);
          assert.deepEqual(await lastAudit(), { actor: `token:${name}`, action, remote }, `${where}: the publish in the audit trail`);
        } else {
          assert.deepEqual(await lastAudit(), { actor: `token:${name}`, action, remote }, where);
        }
      }
    }
    console.log(`scope matrix: ${allowed} calls in scope landed, ${refused} out of scope refused with 403; changes outside a scope: ${outside.length}`);
    assert.deepEqual(outside, [], 'calls out of scope that changed something');
    assert.ok(refused > 100 && allowed > 20, `${refused} refused, ${allowed} allowed: the matrix covers both`);
  });

  it('answers 401, changing nothing, without a valid token: none, malformed, unknown, wrong secret, revoked', async () => {
    const change = { json: { version: '1.2.0', percent: 50 } };
    const path = '/v1/environments/production/remotes/remote-title/canary';
    const temporary = await createToken(db.pool, 'temporary', { remotes: ['*'], environments: ['*'], actions: ['*'] }, 'test');
    assert.equal((await request(base, 'GET', '/v1/environments/production/status', { token: temporary })).status, 200, 'the token works before it is revoked');
    await revokeToken(db.pool, 'temporary');
    const wrongSecret = `${tokens['title-ci']!.slice(0, -4)}AAAA` === tokens['title-ci'] ? `${tokens['title-ci']!.slice(0, -4)}BBBB` : `${tokens['title-ci']!.slice(0, -4)}AAAA`;
    const cases: Record<string, Record<string, string>> = {
      none: {},
      'not bearer': { Authorization: `Basic ${Buffer.from(`x:${admin}`).toString('base64')}` },
      malformed: { Authorization: 'Bearer let-me-in' },
      'unknown name': { Authorization: `Bearer ${admin.replace('netnet_admin_', 'netnet_nobody_')}` },
      'wrong secret': { Authorization: `Bearer ${wrongSecret}` },
      revoked: { Authorization: `Bearer ${temporary}` },
    };
    for (const [label, headers] of Object.entries(cases)) {
      const before = await snapshot();
      const answer = await request(base, 'PUT', path, { ...change, headers });
      assert.equal(answer.status, 401, label);
      assert.match(String(answer.body.error), /^a valid token is needed/, label);
      assert.equal(await snapshot(), before, `${label}: nothing changed`);
      // Not even whether a path exists is said without a token.
      assert.equal((await request(base, 'GET', '/v1/no-such-call', { headers })).status, 401, label);
    }
    assert.equal((await request(base, 'PUT', path, { ...change, token: tokens['title-ci'] })).status, 200, 'the right token lands it');
  });

  it('answers 409 to changes of one remote that lost the race to another, writing nothing for them', async () => {
    // The map reads of the first four calls are all answered before any goes on (as in
    // store/rollouts.test.ts): they start from the same map version, so three lose for sure.
    const writers = 4;
    const held: (() => void)[] = [];
    let released = false;
    const racing = {
      connect: () => db.pool.connect(),
      async query(text: string, values?: unknown[]) {
        const result = await db.pool.query(text, values);
        if (/^SELECT version, map FROM rollouts\b/.test(text) && held.length < writers - 1 && !released) {
          await new Promise<void>((go) => held.push(go));
        } else if (/^SELECT version, map FROM rollouts\b/.test(text) && !released) {
          released = true;
          for (const go of held) go();
        }
        return result;
      },
    };
    const raceBase = await startApi({ database: { ...db, pool: racing as unknown as pg.Pool } });
    const before = await db.pool.query<{ version: string }>("SELECT version FROM rollouts WHERE environment = 'production'");
    const answers = await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        request(raceBase, 'PUT', '/v1/environments/production/remotes/remote-title/canary', { token: tokens['title-ci'], json: { version: '1.2.0', percent: 10 * (i + 1) } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 409, 409, 409]);
    for (const answer of answers.filter((one) => one.status === 409)) {
      assert.match(String(answer.body.error), /^remote-title in production was changed by someone else meanwhile \(now stable 1\.0\.0, canary 1\.2\.0 at \d+%\); nothing was changed/);
    }
    const after = await db.pool.query<{ version: string; map: Rollout }>("SELECT version, map FROM rollouts WHERE environment = 'production'");
    assert.equal(Number(after.rows[0]!.version), Number(before.rows[0]!.version) + 1, 'one change landed');
    const landed = answers.find((answer) => answer.status === 200)!;
    assert.deepEqual(after.rows[0]!.map.remotes['remote-title'], landed.body.plan);
  });

  it('publishes an archive once: the same bytes again are 200 and change nothing, other bytes for that version are 409', async () => {
    const token = tokens['title-ci']!;
    const path = '/v1/remotes/remote-title/releases/2.0.0?browserOnly=true';
    const dir = build('remote-title', '2.0.0', 'first');
    const first = await request(base, 'POST', path, { token, archive: packDirectory(dir) });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.outcome, 'published');
    const { rows } = await db.pool.query('SELECT published_by FROM releases WHERE remote = $1 AND version = $2', ['remote-title', '2.0.0']);
    assert.deepEqual(rows, [{ published_by: 'token:title-ci' }]);

    const published = await snapshot();
    // A retried pipeline: the same files, sent uncompressed this time.
    const again = await request(base, 'POST', path, { token, archive: tarOf(dir), contentType: 'application/x-tar' });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.outcome, 'unchanged');
    assert.equal(await snapshot(), published, 'a retry changes nothing');

    const other = await request(base, 'POST', path, { token, archive: packDirectory(build('remote-title', '2.0.0', 'second')) });
    assert.equal(other.status, 409, JSON.stringify(other.body));
    assert.match(String(other.body.error), /already published with other files/);
    assert.equal(await snapshot(), published, 'other bytes change nothing');
  });

  it('refuses an upload over its size from its Content-Length (413), and a body that is not an archive, before anything is published', async () => {
    const small = await startApi({ limits: { uploadBytes: 1_000 } });
    const token = tokens['title-ci']!;
    const before = await snapshot();
    const big = await request(small, 'POST', '/v1/remotes/remote-title/releases/2.1.0?browserOnly=true', { token, archive: Buffer.alloc(5_000) });
    assert.equal(big.status, 413);
    assert.match(String(big.body.error), /larger than/);
    const json = await request(base, 'POST', '/v1/remotes/remote-title/releases/2.1.0?browserOnly=true', { token, archive: Buffer.from('{}'), contentType: 'application/json' });
    assert.equal(json.status, 415);
    assert.equal(await snapshot(), before);
  });

  it('answers a rollout refusal as the CLI words it (422), an unknown remote 404 and a bad body 400', async () => {
    const token = admin;
    const notPublished = await request(base, 'PUT', '/v1/environments/production/remotes/remote-title/canary', { token, json: { version: '9.9.9', percent: 10 } });
    assert.equal(notPublished.status, 422);
    assert.match(String(notPublished.body.error), /^remote-title 9\.9\.9 is not published/);
    assert.equal((await request(base, 'POST', '/v1/environments/production/remotes/remote-nope/promote', { token })).status, 404);
    const badPercent = await request(base, 'PUT', '/v1/environments/production/remotes/remote-title/canary', { token, json: { version: '1.2.0', percent: 10.5 } });
    assert.equal(badPercent.status, 422);
    assert.equal((await request(base, 'PUT', '/v1/environments/production/remotes/remote-title/stable', { token, json: { version: '1.2.0', extra: 1 } })).status, 400);
  });
});

describe('npm run release and npm run rollout as clients of the API', { timeout: 120_000 }, () => {
  const run = promisify(execFile);
  const runner = join(import.meta.dirname, '..', '..', 'bin', 'run.mjs');
  /** A command as a pipeline runs it: its own process, only a URL and a token to reach the site. */
  async function cli(script: 'release' | 'rollout', args: string[], env: Record<string, string>) {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('NETNET_') && key !== 'DATABASE_URL'));
    // A deploy folder of its own with no store in it: a command that wrote the store directly would fail or write elsewhere.
    const elsewhere = mkdtempSync(join(tmpdir(), 'netnet-api-cli-'));
    try {
      const { stdout, stderr } = await run(process.execPath, [runner, script, ...args], { env: { ...clean, NETNET_DEPLOY_DIR: elsewhere, ...env } });
      return { code: 0, out: stdout, err: stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, out: failed.stdout, err: failed.stderr };
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  }
  let base: string;
  let token: string;
  before(async () => {
    base = await startApi();
    token = await createToken(db.pool, 'cli-client', { remotes: ['remote-browse'], environments: ['production'], actions: ['*'] }, 'test');
    await resetMaps();
  });

  it('publishes through the API with --from, then rolls out, each change recorded under the token', async () => {
    const env = { NETNET_CONTROL_URL: base, NETNET_TOKEN: token, NETNET_ENV: 'production' };
    const released = await cli('release', ['remote-browse', '--version', '4.0.0', '--from', build('remote-browse', '4.0.0')], env);
    // No server build in this fixture: the API refuses it, with the upload's own message, and the command fails.
    assert.equal(released.code, 1, released.out);
    assert.match(released.err, /^error: the archive of remote-browse 4\.0\.0 has no server build .*\(the control-plane API answered 422\)$/m);
    const whole = await cli('release', ['remote-browse', '--version', '4.1.0', '--from', build('remote-browse', '4.1.0', '', { server: true })], env);
    assert.equal(whole.code, 0, whole.err);
    assert.match(whole.out, new RegExp(`^published remote-browse 4\\.1\\.0 through ${base.replaceAll('.', '\\.')}: 5 files`, 'm'));
    const { rows } = await db.pool.query('SELECT published_by FROM releases WHERE remote = $1 AND version = $2', ['remote-browse', '4.1.0']);
    assert.deepEqual(rows, [{ published_by: 'token:cli-client' }]);

    const canary = await cli('rollout', ['canary', 'remote-browse', '1.2.0', '--percent', '20'], env);
    assert.equal(canary.code, 0, canary.err);
    assert.match(canary.out, /^production: remote-browse +stable 1\.0\.0 · canary 1\.2\.0 at 20%/m);
    assert.deepEqual(await lastAudit(), { actor: 'token:cli-client', action: 'canary', remote: 'remote-browse' });

    const status = await cli('rollout', ['status'], env);
    assert.equal(status.code, 0, status.err);
    assert.match(status.out, /^remote-browse +stable 1\.0\.0 · canary 1\.2\.0 at 20% · published /m);
    assert.doesNotMatch(status.out, /remote-title/, 'only the token’s remotes');

    const before = await snapshot();
    const refused = await cli('rollout', ['promote', 'remote-title'], env);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /^error: the token "cli-client" may not promote remote-title in production; nothing was changed\. \(the control-plane API answered 403\)$/m);
    assert.equal(await snapshot(), before);
  });

  it('refuses a URL without a token, and a token without a URL, rather than guess', async () => {
    const noToken = await cli('rollout', ['status'], { NETNET_CONTROL_URL: base });
    assert.equal(noToken.code, 1);
    assert.match(noToken.err, /NETNET_CONTROL_URL is set .* but NETNET_TOKEN is not/);
    const noUrl = await cli('rollout', ['status'], { NETNET_TOKEN: token });
    assert.equal(noUrl.code, 1);
    assert.match(noUrl.err, /NETNET_TOKEN is set but NETNET_CONTROL_URL is not/);
  });
});

describe('the API server’s connection limits', { timeout: 60_000 }, () => {
  it('answers a pipeline’s call while many addresses each hold their share of slow uploads', async () => {
    const base = await startApi({ limits: { connectionsPerClient: 4, maxConnections: 12 } });
    const { port } = new URL(base);
    const uploader = await createToken(db.pool, `slow-uploader-${Date.now()}`, { remotes: ['remote-title'], environments: ['*'], actions: ['publish'] }, 'test');
    // Five addresses × 4 uploads that trickle a byte every 200 ms: 20 connections for a cap of 12.
    const held: net.Socket[] = [];
    for (let address = 2; address <= 6; address += 1) {
      for (let i = 0; i < 4; i += 1) {
        const socket = net.connect({ port: Number(port), host: '127.0.0.1', localAddress: `127.0.0.${address}` }).resume();
        socket.on('error', () => {});
        socket.write(`POST /v1/remotes/remote-title/releases/9.9.${address}${i} HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${uploader}\r\nContent-Type: application/x-tar\r\nContent-Length: 100000\r\n\r\n`);
        held.push(socket);
      }
    }
    const trickle = setInterval(() => held.forEach((socket) => socket.writable && socket.write('x')), 200);
    try {
      await new Promise((done) => setTimeout(done, 500));
      // The pipeline, from an address of its own: its call is answered (401 here: no real token), never refused.
      const answers: number[] = [];
      for (let call = 0; call < 3; call += 1) {
        const answer = await new Promise<number | string>((done) => {
          const socket = net.connect({ port: Number(port), host: '127.0.0.1', localAddress: '127.0.0.9' });
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
          socket.on('close', () => done(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]) || 'closed unanswered'));
          socket.write('GET /v1/environments/production/status HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer not-a-token\r\nConnection: close\r\n\r\n');
        });
        answers.push(answer as number);
      }
      assert.deepEqual(answers, [401, 401, 401]);
      // The room was made by the clients holding the most, not by refusing everyone: most uploads still stand.
      assert.ok(held.filter((socket) => !socket.destroyed).length >= 9, `${held.filter((socket) => !socket.destroyed).length} uploads still open`);
    } finally {
      clearInterval(trickle);
      held.forEach((socket) => socket.destroy());
    }
  });

  it('closes a client’s connections past its cap, and a connection that sends no request in time', async (t) => {
    const headersTimeout = 2_000;
    const base = await startApi({ limits: { connectionsPerClient: 2, headersTimeout } });
    const { port } = new URL(base);
    const closedInOrder: string[] = [];
    // A connection's life counts from before it dials, so the server's clock for it cannot start
    // earlier than the test's. It reads whatever it is sent, so that nothing left unread can keep
    // it from seeing its close.
    const dial = (name: string) => {
      const dialled = Date.now();
      const socket = net.connect(Number(port), '127.0.0.1').resume();
      const closed = new Promise<number>((done) =>
        socket.once('close', () => {
          closedInOrder.push(name);
          done(Date.now() - dialled);
        }),
      );
      // A reset (ECONNRESET) also ends in 'close'; the error itself is not what this test is about.
      socket.on('error', () => {});
      return { socket, closed };
    };
    const a = dial('a');
    await once(a.socket, 'connect');
    const b = dial('b');
    await once(b.socket, 'connect');
    const c = dial('c');

    // The third is closed at once: well within the header timeout, and before either silent one.
    const cLived = await c.closed;
    t.diagnostic(`the connection over the cap lived ${cLived} ms (bound ${headersTimeout / 2} ms)`);
    assert.deepEqual(closedInOrder, ['c'], 'the connection over the cap is closed before the silent ones');
    assert.ok(cLived < headersTimeout / 2, `the connection over the cap lived ${cLived} ms`);
    // The first two are closed by the header timeout, not before it (a few ms for two clocks' rounding).
    for (const kept of [a, b]) {
      const lived = await kept.closed;
      t.diagnostic(`a silent connection lived ${lived} ms (bounds ${headersTimeout - 10} and ${headersTimeout + 3_000} ms)`);
      assert.ok(lived >= headersTimeout - 10 && lived < headersTimeout + 3_000, `a silent connection lived ${lived} ms`);
    }
  });
});
