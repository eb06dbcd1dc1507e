// Contract of the store's migrations against a real PostgreSQL (./testDatabase.ts): an empty
// database gets every migration, a current one none, several openers at once apply each once.
// Run: node --import tsx --test control-plane/src/store/database.test.ts
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { migrate, migrations, openDatabase, readStoreSettings } from './database.ts';
import { testDatabase, type TestDatabase } from './testDatabase.ts';

const TABLES = ['api_tokens', 'audit', 'console_links', 'console_sessions', 'guard_leases', 'health_counts', 'health_failed_networks', 'health_network_counts', 'qa_tokens', 'refused_calls', 'release_blobs', 'release_files', 'releases', 'rollouts', 'schema_migrations'];

describe('migrations', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let databases = 0;
  const pools: pg.Pool[] = [];
  before(async () => {
    database = await testDatabase();
  });
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await database.close();
  });

  /** A new, empty database in the test server, and `count` pools on it. */
  async function emptyDatabase(count = 1): Promise<pg.Pool[]> {
    const name = `empty_${(databases += 1)}`;
    await database.pool.query(`CREATE DATABASE ${name}`);
    const opened = Array.from({ length: count }, () => {
      const pool = new pg.Pool({ ...database.config, database: name, max: 2 });
      // As openDatabase's pool: an idle connection the server drops is replaced, not thrown.
      pool.on('error', () => {});
      return pool;
    });
    pools.push(...opened);
    return opened;
  }
  const tables = async (pool: pg.Pool) =>
    (await pool.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).rows.map((row) => row.tablename);
  const recorded = async (pool: pg.Pool) => (await pool.query<{ id: string; applied_at: Date }>('SELECT id, applied_at FROM schema_migrations ORDER BY id')).rows;

  it('reads the numbered SQL files of a folder in order, and nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'netnet-migrations-'));
    try {
      for (const name of ['002_second.sql', '001_first.sql', 'README.md', '3_unnumbered.sql', '004_Upper.sql']) writeFileSync(join(dir, name), `-- ${name}`);
      assert.deepEqual(
        migrations(dir).map(({ id, sql }) => [id, sql]),
        [
          ['001_first', '-- 001_first.sql'],
          ['002_second', '-- 002_second.sql'],
        ],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.ok(migrations().length > 0, 'the repo has its migrations');
  });

  it('gives an empty database every migration, recording each, and a current one none', async () => {
    const pool = (await emptyDatabase())[0]!;
    const ids = migrations().map(({ id }) => id);
    assert.deepEqual(await migrate(pool), ids);
    assert.deepEqual(await tables(pool), TABLES);
    const first = await recorded(pool);
    assert.deepEqual(first.map((row) => row.id), ids);
    // Again, as every start does: nothing applied, nothing recorded anew.
    assert.deepEqual(await migrate(pool), []);
    assert.deepEqual(await recorded(pool), first);
    // The test database was opened the way the site opens it: already current.
    assert.deepEqual(await migrate(database.pool), []);
  });

  it('gives a current database only the migrations it lacks', async () => {
    const pool = (await emptyDatabase())[0]!;
    await migrate(pool);
    const later = [...migrations(), { id: '900_later', sql: 'CREATE TABLE later (id int PRIMARY KEY)' }];
    assert.deepEqual(await migrate(pool, later), ['900_later']);
    assert.deepEqual(await migrate(pool, later), []);
    assert.ok((await tables(pool)).includes('later'));
    assert.equal((await recorded(pool)).at(-1)?.id, '900_later');
  });

  it('leaves nothing of a failing migration and applies none after it, until it is fixed', async () => {
    const pool = (await emptyDatabase())[0]!;
    const list = (broken: boolean) => [
      { id: '001_a', sql: 'CREATE TABLE a (id int)' },
      { id: '002_b', sql: `CREATE TABLE b (id int); INSERT INTO b VALUES (1); SELECT ${broken ? '1 / 0' : '1'}` },
      { id: '003_c', sql: 'CREATE TABLE c (id int)' },
    ];
    await assert.rejects(migrate(pool, list(true)), /migration 002_b failed: division by zero/);
    assert.deepEqual(await tables(pool), ['a', 'schema_migrations']);
    assert.deepEqual((await recorded(pool)).map((row) => row.id), ['001_a']);
    assert.deepEqual(await migrate(pool, list(false)), ['002_b', '003_c']);
    assert.deepEqual(await tables(pool), ['a', 'b', 'c', 'schema_migrations']);
  });

  it('applies each migration once when several instances start at once', async () => {
    // CREATE TABLE without IF NOT EXISTS: a migration applied twice would fail the second time;
    // the sleep holds the first opener inside it while the others arrive.
    const list = [
      { id: '001_slow', sql: 'CREATE TABLE slow (id int); SELECT pg_sleep(0.2)' },
      { id: '002_next', sql: 'CREATE TABLE next (id int)' },
      ...migrations().map(({ id, sql }) => ({ id: `1${id}`, sql })),
    ];
    const openers = await emptyDatabase(6);
    const applied = await Promise.all(openers.map((pool) => migrate(pool, list)));
    assert.deepEqual(applied.flat().sort(), list.map(({ id }) => id).sort());
    assert.equal(applied.filter((ids) => ids.length > 0).length, 1, 'one opener applied them all, in order');
    assert.deepEqual(applied.find((ids) => ids.length > 0), list.map(({ id }) => id));
    assert.deepEqual((await recorded(openers[0]!)).map((row) => row.id), list.map(({ id }) => id));
  });
});

describe('opening the store', { timeout: 120_000 }, () => {
  it('several commands opening it at once in a fresh checkout share one embedded server, migrated once', async () => {
    // npm start, its instances and a release command all start the embedded PostgreSQL on first
    // use: the first to run initializes and starts it, the others wait for it to be ready.
    const dir = mkdtempSync(join(tmpdir(), 'netnet-db-'));
    const store = readStoreSettings({ NETNET_DEPLOY_DIR: dir });
    const results = await Promise.allSettled(Array.from({ length: 3 }, () => openDatabase({ store, max: 2 })));
    const opened = results.filter((result) => result.status === 'fulfilled').map((result) => result.value);
    try {
      assert.deepEqual(
        results.filter((result) => result.status === 'rejected').map((result) => result.reason.message),
        [],
      );
      assert.equal(opened.filter((store) => store.embedded?.startedHere).length, 1);
      for (const store of opened) {
        assert.deepEqual((await store.pool.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((row) => row.id), migrations().map(({ id }) => id));
      }
    } finally {
      await Promise.all(opened.map((store) => store.close()));
      await opened[0]?.embedded?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
