// The API's tokens (./tokens.ts) in a real PostgreSQL: made once and shown once, kept only as a
// hash, found by name and checked in constant time, revoked at once; and the scope lists the admin
// command takes, checked against what exists.
// Run: node --import tsx --test control-plane/src/api/tokens.test.ts
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DeployError } from '../errors.ts';
import { testDatabase, type TestDatabase } from '../store/testDatabase.ts';
import { allows, authenticate, createToken, listTokens, parseList, revokeToken } from './tokens.ts';

describe('scope lists', () => {
  it('takes known remotes, environment names and actions, or "*" alone', () => {
    assert.deepEqual(parseList('remotes', 'remote-title, remote-search,remote-title'), ['remote-title', 'remote-search']);
    assert.deepEqual(parseList('environments', 'production'), ['production']);
    assert.deepEqual(parseList('actions', '*'), ['*']);
  });

  it('refuses anything else, saying what is accepted', () => {
    assert.throws(() => parseList('remotes', 'remote-nope'), { message: /unknown remote "remote-nope"\. Known remotes: remote-auth/ });
    assert.throws(() => parseList('environments', 'Prod!'), DeployError);
    assert.throws(() => parseList('actions', 'publish,deploy'), { message: /unknown action "deploy"\. Actions: publish, stable, canary, promote, rollback, pin, status/ });
    assert.throws(() => parseList('actions', '*,publish'), { message: /"\*" means all; give it alone/ });
    assert.throws(() => parseList('remotes', undefined), { message: /needs at least one value/ });
  });

  it('allows what the scope names: publishing names no environment; the pin policy takes every remote', () => {
    const title = { remotes: ['remote-title'], environments: ['production'], actions: ['publish', 'pin', 'status'] };
    assert.equal(allows(title, 'publish', { remote: 'remote-title' }), true);
    assert.equal(allows(title, 'publish', { remote: 'remote-search' }), false);
    assert.equal(allows(title, 'status', { environment: 'production' }), true);
    assert.equal(allows(title, 'status', { environment: 'staging' }), false);
    assert.equal(allows(title, 'canary', { remote: 'remote-title', environment: 'production' }), false);
    assert.equal(allows(title, 'pin', { remote: null, environment: 'production' }), false, 'one remote is not every remote');
    assert.equal(allows({ ...title, remotes: ['*'] }, 'pin', { remote: null, environment: 'production' }), true);
  });
});

describe('tokens in the store', { timeout: 120_000 }, () => {
  let db: TestDatabase;
  before(async () => {
    db = await testDatabase({ max: 2 });
  });
  after(() => db.close());
  const scope = { remotes: ['remote-title'], environments: ['production'], actions: ['publish', 'status'] };

  it('is shown once and kept only as the SHA-256 of its secret', async () => {
    const token = await createToken(db.pool, 'title-ci', scope, 'admin@host');
    const [, secret] = /^netnet_title-ci_([A-Za-z0-9_-]{43})$/.exec(token) ?? [];
    assert.ok(secret, token);
    const { rows } = await db.pool.query<Record<string, unknown>>('SELECT * FROM api_tokens');
    const stored = JSON.stringify(rows);
    assert.ok(!stored.includes(secret), 'the secret is not in the store');
    assert.deepEqual(rows[0]?.secret_hash, createHash('sha256').update(secret).digest());
    assert.deepEqual(await authenticate(db.pool, token), { name: 'title-ci', actor: 'token:title-ci', ...scope });
    const [listed] = await listTokens(db.pool);
    assert.equal(listed?.created_by, 'admin@host');
    assert.ok(listed?.last_used_at instanceof Date, 'its last use is recorded');
  });

  it('refuses a name twice, and anything but the exact token', async () => {
    await assert.rejects(createToken(db.pool, 'title-ci', scope, 'admin@host'), { message: /a token named "title-ci" exists already/ });
    await assert.rejects(createToken(db.pool, 'Title CI', scope, 'admin@host'), { message: /is not a token name/ });
    const token = await createToken(db.pool, 'search-ci', scope, 'admin@host');
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const wrong of [undefined, '', 'netnet_search-ci_', flipped, token.replace('search-ci', 'title-ci'), token.replace('search-ci', 'nobody'), ` ${token}`]) {
      assert.equal(await authenticate(db.pool, wrong), null, String(wrong));
    }
  });

  it('is refused from the moment it is revoked, and stays listed as revoked', async () => {
    const token = await createToken(db.pool, 'short-lived', scope, 'admin@host');
    assert.notEqual(await authenticate(db.pool, token), null);
    await revokeToken(db.pool, 'short-lived');
    assert.equal(await authenticate(db.pool, token), null);
    await assert.rejects(revokeToken(db.pool, 'short-lived'), { message: /is revoked already/ });
    await assert.rejects(revokeToken(db.pool, 'never-made'), { message: /there is no token named "never-made"/ });
    const listed = (await listTokens(db.pool)).find((one) => one.name === 'short-lived');
    assert.ok(listed?.revoked_at instanceof Date);
  });
});
