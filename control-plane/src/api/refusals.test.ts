// The API's refused calls (401, 403) recorded in the store (./refusals.ts) by the API's own role,
// against a real PostgreSQL: the token name tried and the address, never the secret.
// Run: node --import tsx --test control-plane/src/api/refusals.test.ts
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../store/database.ts';
import { testDatabase, type TestDatabase } from '../store/testDatabase.ts';
import { publishUpload } from '../releases/upload.ts';
import { createApi } from './server.ts';
import { createToken } from './tokens.ts';

interface Refused {
  status: number;
  token_name: string | null;
  address: string;
  method: string;
  path: string;
  reason: string;
}

describe('refused API calls', { timeout: 120_000 }, () => {
  let db: TestDatabase;
  let apiDb: Database;
  let server: FastifyInstance;
  let base: string;
  let token: string;

  before(async () => {
    db = await testDatabase();
    apiDb = await db.as('api');
    server = await createApi({ database: apiDb, publish: publishUpload, env: { ...process.env, NETNET_DEPLOY_DIR: db.dir } });
    base = await server.listen({ port: 0, host: '127.0.0.1' });
    token = await createToken(db.pool, 'title-ci', { remotes: ['remote-title'], environments: ['staging'], actions: ['status'] }, 'test');
  });
  after(async () => {
    server.server.closeAllConnections();
    await server.close();
    await apiDb.close();
    await db.close();
  });

  const call = async (method: string, path: string, authorization?: string) =>
    (await fetch(`${base}${path}`, { method, headers: authorization ? { Authorization: authorization } : {} })).status;
  const refused = async () =>
    (await db.pool.query<Refused>('SELECT status, token_name, address, method, path, reason FROM refused_calls ORDER BY id')).rows;

  it('records each 401 and 403 with the token name tried and the address, and nothing for a call let through', async () => {
    const unknown = token.replace('netnet_title-ci_', 'netnet_ops-backup_');
    const wrongSecret = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    assert.equal(await call('GET', '/v1/environments/staging/status'), 401);
    assert.equal(await call('GET', '/v1/environments/staging/status', `Bearer ${unknown}`), 401);
    assert.equal(await call('PUT', '/v1/environments/production/pin-policy', `Bearer ${wrongSecret}`), 401);
    assert.equal(await call('GET', '/v1/environments/production/status', `Bearer ${token}`), 403);
    assert.equal(await call('GET', '/v1/environments/staging/status', `Bearer ${token}`), 200);
    const rows = await refused();
    assert.deepEqual(
      rows.map(({ status, token_name, address, method, path }) => ({ status, token_name, address, method, path })),
      [
        { status: 401, token_name: null, address: '127.0.0.1', method: 'GET', path: '/v1/environments/staging/status' },
        { status: 401, token_name: 'ops-backup', address: '127.0.0.1', method: 'GET', path: '/v1/environments/staging/status' },
        { status: 401, token_name: 'title-ci', address: '127.0.0.1', method: 'PUT', path: '/v1/environments/production/pin-policy' },
        { status: 403, token_name: 'title-ci', address: '127.0.0.1', method: 'GET', path: '/v1/environments/production/status' },
      ],
    );
    assert.match(rows[3]!.reason, /^the token "title-ci" may not status in production/);
    // No secret is kept, whichever was sent.
    const kept = JSON.stringify(rows);
    for (const sent of [token, unknown, wrongSecret]) assert.equal(kept.includes(sent.slice(-43)), false);
  });
});
