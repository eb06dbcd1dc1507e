// Contract of the store's roles in a real PostgreSQL (./testDatabase.ts; docs/deploy.md, "Roles"):
// what each of the site's logins may and may not do (an instance changes no map at all; the
// guard's rollback is the CLI role's, under the lease), and the audit row the database itself writes for every change of a map, a release
// or a token, whoever makes it with raw SQL.
// Run: node --import tsx --test control-plane/src/store/roles.test.ts
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createToken, revokeToken } from '../api/tokens.ts';
import { deleteHealthBefore, OUTCOME, writeCounts } from './health.ts';
import type { Database } from './database.ts';
import { acquireLease } from './lease.ts';
import { registerRelease } from './releases.ts';
import { Conflict, guardRollback, LeaseLost, readRollout, updateRollout, type Rollout } from './rollouts.ts';
import { testDatabase, type TestDatabase } from './testDatabase.ts';

const REMOTE = 'remote-title';
const withCanary = (percent = 10): Rollout => ({ remotes: { [REMOTE]: { stable: '1.3.0', history: [], canary: { version: '1.4.0', percent } } } });

/** PostgreSQL's "insufficient privilege". */
const DENIED = { code: '42501' };

interface AuditRow {
  kind: string;
  role: string;
  actor: string;
  action: string;
  environment: string | null;
  map_version: string | null;
  remote: string | null;
  subject: string | null;
  reason: string | null;
  detail: Record<string, unknown> | null;
}

describe('store roles', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let instance: Database;
  let api: Database;
  let cli: Database;
  let runs = 0;
  const environment = () => `roles-${(runs += 1)}`;

  before(async () => {
    database = await testDatabase({ max: 4 });
    [instance, api, cli] = await Promise.all([database.as('instance'), database.as('api'), database.as('cli', { actor: 'ops@host' })]);
    for (const version of ['1.3.0', '1.4.0']) await registerRelease(database.pool, REMOTE, version, null);
  });
  after(async () => {
    await Promise.all([instance, api, cli].map((db) => db?.close()));
    await database.close();
  });

  /** The audit rows written since `afterId`, oldest first. */
  const auditSince = async (afterId: number) =>
    (
      await database.pool.query<AuditRow>(
        'SELECT kind, role, actor, action, environment, map_version, remote, subject, reason, detail FROM audit WHERE id > $1 ORDER BY id',
        [afterId],
      )
    ).rows;
  const lastId = async () => (await database.pool.query<{ id: number }>('SELECT coalesce(max(id), 0)::int AS id FROM audit')).rows[0]!.id;
  const tokenCount = async () => (await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM api_tokens')).rows[0]!.n;

  it('lets each process log in as its own role, and no one by trust', async () => {
    for (const [db, role] of [
      [instance, 'netnet_instance'],
      [api, 'netnet_api'],
      [cli, 'netnet_cli'],
    ] as const) {
      assert.equal((await db.pool.query<{ who: string }>('SELECT session_user AS who')).rows[0]?.who, role);
    }
    const rules = await database.pool.query<{ type: string; auth_method: string }>('SELECT type, auth_method FROM pg_hba_file_rules');
    assert.deepEqual(rules.rows, [{ type: 'local', auth_method: 'peer' }]);
    assert.doesNotMatch(readFileSync(join(database.embedded.dir, 'pg_hba.conf'), 'utf8'), /trust/);
  });

  it('lets an instance read the map and the releases and add health counts', async () => {
    const on = environment();
    await updateRollout(database.pool, on, () => withCanary(), { actor: 'test', action: 'import' });
    assert.deepEqual((await readRollout(instance.pool, on)).rollout, withCanary());
    const minute = Math.floor(Date.now() / 60_000);
    const row = { remote: REMOTE, release: '1.4.0', channel: 'canary', minute, metric: `${OUTCOME}loaded`, count: 1 };
    await writeCounts(instance.pool, on, new Map([['one', row]]), new Map());
    const counted = await database.pool.query<{ n: number }>('SELECT sum(count)::int AS n FROM health_counts WHERE environment = $1', [on]);
    assert.equal(counted.rows[0]?.n, 1);
  });

  it('refuses an instance the guard’s work: the lease, the rollback and pruning the counts', async () => {
    const on = environment();
    await updateRollout(database.pool, on, () => withCanary(25), { actor: 'test', action: 'import' });
    await assert.rejects(acquireLease(instance.pool, on, 'i-1', 60_000), DENIED);
    const held = await acquireLease(cli.pool, on, 'guard-1', 60_000);
    await assert.rejects(
      guardRollback(instance.pool, on, { lease: held!, remote: REMOTE, stable: '1.3.0', canary: { version: '1.4.0', percent: 25 }, at: '2026-11-27T11:00:00.000Z', reason: 'x', keepHistory: 50 }),
      DENIED,
    );
    await assert.rejects(deleteHealthBefore(instance.pool, { minute: 0, hour: 0 }), DENIED);
    assert.deepEqual((await readRollout(database.pool, on)).rollout, withCanary(25));
  });

  it('refuses an instance any write of a map, a release, a token or the audit trail, and any read of the tokens', async () => {
    const on = environment();
    await updateRollout(database.pool, on, () => withCanary(), { actor: 'test', action: 'import' });
    const before = await lastId();
    const attempts: [string, unknown[]][] = [
      ["UPDATE rollouts SET map = '{\"remotes\":{}}' WHERE environment = $1", [on]],
      ["INSERT INTO rollouts (environment, version, map) VALUES ($1 || '-new', 1, '{\"remotes\":{}}')", [on]],
      ['DELETE FROM rollouts WHERE environment = $1', [on]],
      ["INSERT INTO releases (remote, version) VALUES ($1, '9.9.9')", [REMOTE]],
      ["UPDATE releases SET published_by = 'me' WHERE remote = $1", [REMOTE]],
      ['DELETE FROM releases WHERE remote = $1', [REMOTE]],
      ["INSERT INTO api_tokens (name, secret_hash, remotes, environments, actions, created_by) VALUES ('ops-backup', $1, '{*}', '{*}', '{*}', 'x')", [Buffer.alloc(32)]],
      ["UPDATE api_tokens SET revoked_at = NULL WHERE name = 'x'", []],
      ['SELECT name, secret_hash FROM api_tokens', []],
      ['SELECT name FROM api_tokens', []],
      ["INSERT INTO qa_tokens (id, environment, made_for, created_by, expires_at) VALUES (repeat('a', 22), $1, 'x', 'x', now() + interval '1 hour')", [on]],
      ['UPDATE qa_tokens SET revoked_at = NULL', []],
      ['SELECT made_for FROM qa_tokens', []],
      ["INSERT INTO audit (environment, map_version, actor, action, map) VALUES ($1, 1, 'x', 'x', '{}')", [on]],
      ['UPDATE audit SET actor = $1', ['x']],
      ['DELETE FROM audit', []],
      ['SELECT * FROM audit', []],
      ['SELECT * FROM refused_calls', []],
      ['TRUNCATE rollouts', []],
      ['ALTER TABLE rollouts DISABLE TRIGGER audit_change', []],
      ["SET session_replication_role = 'replica'", []],
    ];
    for (const [sql, values] of attempts) {
      await assert.rejects(instance.pool.query(sql, values), DENIED, sql);
    }
    assert.deepEqual((await readRollout(database.pool, on)).rollout, withCanary());
    assert.equal(await lastId(), before);
  });

  it('refuses the CLI the tokens’ secret hashes and the API any change of a token but its last use', async () => {
    await createToken(database.pool, 'scoped', { remotes: [REMOTE], environments: ['staging'], actions: ['status'] }, 'test');
    await assert.rejects(cli.pool.query('SELECT secret_hash FROM api_tokens'), DENIED);
    assert.equal((await cli.pool.query('SELECT name FROM api_tokens')).rowCount, await tokenCount());
    for (const sql of [
      "UPDATE api_tokens SET revoked_at = NULL WHERE name = 'scoped'",
      "UPDATE api_tokens SET remotes = '{*}' WHERE name = 'scoped'",
      "INSERT INTO api_tokens (name, secret_hash, remotes, environments, actions, created_by) VALUES ('api-made', decode(repeat('00', 32), 'hex'), '{*}', '{*}', '{*}', 'x')",
      "DELETE FROM api_tokens WHERE name = 'scoped'",
    ]) {
      await assert.rejects(api.pool.query(sql), DENIED, sql);
    }
    await assert.rejects(cli.pool.query("UPDATE api_tokens SET remotes = '{*}' WHERE name = 'scoped'"), DENIED);
    for (const db of [api, cli]) {
      await assert.rejects(db.pool.query("INSERT INTO audit (kind, actor, action) VALUES ('token', 'x', 'x')"), DENIED);
      await assert.rejects(db.pool.query('DELETE FROM audit'), DENIED);
      await assert.rejects(db.pool.query("UPDATE audit SET actor = 'x'"), DENIED);
    }
    await assert.rejects(api.pool.query("DELETE FROM releases WHERE remote = 'remote-title'"), DENIED);
  });

  it('lets the guard’s rollback through only while its lease is held, and only for the canary it judged', async () => {
    const on = environment();
    const { version } = await updateRollout(database.pool, on, () => ({ ...withCanary(25), guardHistory: [] }), { actor: 'test', action: 'import' });
    const rollback = (lease: { holder: string; fence: number }, canary = { version: '1.4.0', percent: 25 }) =>
      guardRollback(cli.pool, on, { lease, remote: REMOTE, stable: '1.3.0', canary, at: '2026-11-27T11:00:00.000Z', reason: 'failure rate', keepHistory: 50 });
    // No lease at all, then a lease another holds: nothing written.
    await assert.rejects(rollback({ holder: 'i-1', fence: 1 }), LeaseLost);
    const held = await acquireLease(cli.pool, on, 'i-2', 60_000);
    await assert.rejects(rollback({ holder: 'i-1', fence: held!.fence }), LeaseLost);
    await assert.rejects(rollback({ holder: 'i-2', fence: held!.fence + 1 }), LeaseLost);
    // The holder, but a canary the map no longer has: nothing written.
    await assert.rejects(rollback(held!, { version: '1.4.0', percent: 10 }), Conflict);
    assert.equal((await readRollout(database.pool, on)).version, version);

    const before = await lastId();
    await rollback(held!);
    const { version: after, rollout } = await readRollout(database.pool, on);
    assert.equal(after, version + 1);
    assert.deepEqual(rollout?.remotes[REMOTE], { stable: '1.3.0', history: [], rolledBack: ['1.4.0'] });
    assert.deepEqual(rollout?.guardHistory, [
      { at: '2026-11-27T11:00:00.000Z', remote: REMOTE, action: 'rollback', version: '1.4.0', stable: '1.3.0', from: 25, reason: 'failure rate' },
    ]);
    const [row, ...more] = await auditSince(before);
    assert.deepEqual(more, []);
    assert.deepEqual(
      { kind: row?.kind, role: row?.role, actor: row?.actor, action: row?.action, environment: row?.environment, map_version: row?.map_version, remote: row?.remote, reason: row?.reason },
      { kind: 'map', role: 'netnet_cli', actor: 'guard@i-2', action: 'rollback', environment: on, map_version: String(after), remote: REMOTE, reason: 'failure rate' },
    );
    // Done once: the canary is gone, so the same rollback again changes nothing.
    await assert.rejects(rollback(held!), Conflict);
    assert.equal((await readRollout(database.pool, on)).version, after);
  });

  it('writes an audit row for every change of a map, even by raw SQL of a role that may write, naming the role', async () => {
    const on = environment();
    const before = await lastId();
    await cli.pool.query("INSERT INTO rollouts (environment, version, map) VALUES ($1, 1, '{\"remotes\":{}}')", [on]);
    // A client that says who acts, for its transaction.
    const client = await api.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("SET LOCAL netnet.actor = 'token:someone'");
      await client.query('UPDATE rollouts SET map = $2::jsonb, version = version + 1 WHERE environment = $1', [on, JSON.stringify(withCanary())]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    // The change of a rollout command, as it makes it.
    await updateRollout(cli.pool, on, (latest) => ({ ...latest, remotes: { [REMOTE]: { stable: '1.3.0', history: [] } } }), { actor: 'ops@host', action: 'rollback', remote: REMOTE });
    const rows = await auditSince(before);
    assert.deepEqual(
      rows.map(({ kind, role, actor, action, environment: where, map_version }) => ({ kind, role, actor, action, where, map_version })),
      [
        { kind: 'map', role: 'netnet_cli', actor: 'ops@host', action: 'insert', where: on, map_version: '1' },
        { kind: 'map', role: 'netnet_api', actor: 'token:someone', action: 'update', where: on, map_version: '2' },
        { kind: 'map', role: 'netnet_cli', actor: 'ops@host', action: 'rollback', where: on, map_version: '3' },
      ],
    );
  });

  it('audits publishes, removals, token creation and revocation, but not a token’s last use', async () => {
    const before = await lastId();
    await registerRelease(api.pool, REMOTE, '2.0.0', null, 'token:title-ci');
    await registerRelease(cli.pool, REMOTE, '2.0.1', null);
    // Registering a published version again changes nothing and writes nothing.
    await registerRelease(api.pool, REMOTE, '2.0.0', null, 'token:title-ci');
    await cli.pool.query("DELETE FROM releases WHERE remote = $1 AND version = '2.0.1'", [REMOTE]);
    await createToken(cli.pool, 'title-ci', { remotes: [REMOTE], environments: ['*'], actions: ['publish'] }, 'ops@host');
    await api.pool.query("UPDATE api_tokens SET last_used_at = now() WHERE name = 'title-ci'");
    await revokeToken(cli.pool, 'title-ci');
    const rows = await auditSince(before);
    assert.deepEqual(
      rows.map(({ kind, role, actor, action, remote, subject }) => ({ kind, role, actor, action, remote, subject })),
      [
        { kind: 'release', role: 'netnet_api', actor: 'token:title-ci', action: 'publish', remote: REMOTE, subject: '2.0.0' },
        { kind: 'release', role: 'netnet_cli', actor: 'ops@host', action: 'publish', remote: REMOTE, subject: '2.0.1' },
        { kind: 'release', role: 'netnet_cli', actor: 'ops@host', action: 'remove', remote: REMOTE, subject: '2.0.1' },
        { kind: 'token', role: 'netnet_cli', actor: 'ops@host', action: 'create', remote: null, subject: 'title-ci' },
        { kind: 'token', role: 'netnet_cli', actor: 'ops@host', action: 'revoke', remote: null, subject: 'title-ci' },
      ],
    );
    // A token's row in the trail holds its scope, never its hash.
    const created = rows[3]?.detail;
    assert.deepEqual(created?.remotes, [REMOTE]);
    assert.equal(created && 'secret_hash' in created, false);
  });

  it('names the login when the client says nothing of who acts', async () => {
    const before = await lastId();
    await api.pool.query("INSERT INTO releases (remote, version) VALUES ($1, '3.0.0')", [REMOTE]);
    const [row] = await auditSince(before);
    assert.deepEqual({ role: row?.role, actor: row?.actor, action: row?.action }, { role: 'netnet_api', actor: 'role:netnet_api', action: 'publish' });
  });
});
