// Releases' files in a real PostgreSQL (./testDatabase.ts): each file once by its hash, a publish
// all or nothing and idempotent, retention deleting what no release holds, and a working copy made
// again from the store alone.
// Run: node --import tsx --test control-plane/src/store/releaseFiles.test.ts
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { publishRelease, unregisterRelease } from './releases.ts';
import { dropUnheldFiles, materializeRelease, storedFileHashes, storedSize } from './releaseFiles.ts';
import { testDatabase, type TestDatabase } from './testDatabase.ts';

const REMOTE = 'remote-title';
let db: TestDatabase;
let work: string;

/** A release folder with these files (path → text). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(work, 'build-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const count = async (table: string) => Number((await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

before(async () => {
  db = await testDatabase();
});
after(() => db.close());
beforeEach(async () => {
  await db.pool.query('TRUNCATE releases, release_files, release_blobs CASCADE');
  work = mkdtempSync(join(tmpdir(), 'netnet-release-files-'));
});

const shared = { 'shared.0123456789.js': '/* vendor code both releases hold */', 'server/remoteEntry.js': '/* server */' };

describe('release files in the store', () => {
  it('keeps each file once by its hash, however many releases hold it', async () => {
    await publishRelease(db.pool, { remote: REMOTE, version: '1.0.0', integrity: null, dir: folder({ ...shared, 'mf-manifest.json': '{"v":"1.0.0"}' }) });
    await publishRelease(db.pool, { remote: REMOTE, version: '1.1.0', integrity: null, dir: folder({ ...shared, 'mf-manifest.json': '{"v":"1.1.0"}' }) });
    assert.equal(await count('release_files'), 6);
    assert.equal(await count('release_blobs'), 4, 'two shared files, two manifests');
    const sizes = await storedSize(db.pool, REMOTE, '1.1.0');
    assert.equal(sizes.files, 3);
    assert.equal(sizes.ownBytes, '{"v":"1.1.0"}'.length, 'only its manifest is its own');
  });

  it('is idempotent: the same version published again adds nothing and says so', async () => {
    const dir = folder({ ...shared, 'mf-manifest.json': '{}' });
    assert.equal(await publishRelease(db.pool, { remote: REMOTE, version: '1.0.0', integrity: null, dir }), true);
    assert.equal(await publishRelease(db.pool, { remote: REMOTE, version: '1.0.0', integrity: null, dir }), false);
    assert.equal(await count('release_files'), 3);
    // Two at once: one adds it, the other finds it.
    const both = await Promise.all(['1.2.0', '1.2.0'].map((version) => publishRelease(db.pool, { remote: REMOTE, version, integrity: null, dir })));
    assert.deepEqual(both.sort(), [false, true]);
    assert.equal((await storedFileHashes(db.pool, REMOTE, '1.2.0')).size, 3);
  });

  it('publishes all or nothing: a publisher killed halfway leaves neither the row nor any file', async () => {
    const dir = folder({ 'a.js': 'a', 'b.js': 'b', 'mf-manifest.json': '{}' });
    // Its connection cut (as when its process is killed) at its second file: no COMMIT ever comes.
    let listed = 0;
    const killedHalfway = {
      query: db.pool.query.bind(db.pool),
      async connect() {
        const client = await db.pool.connect();
        const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<unknown>;
        const release = client.release.bind(client);
        client.on('error', () => {});
        return Object.assign(client, {
          async query(text: string, values?: unknown[]) {
            if (text.startsWith('INSERT INTO release_files') && ++listed === 2) {
              (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
              throw new Error('killed');
            }
            return query(text, values);
          },
          // A dead connection never goes back to the pool.
          release: () => release(true),
        });
      },
    };
    await assert.rejects(publishRelease(killedHalfway as unknown as typeof db.pool, { remote: REMOTE, version: '2.0.0', integrity: null, dir }), /killed/);
    assert.equal(listed, 2);
    assert.equal(await count('releases'), 0);
    assert.equal(await count('release_files'), 0);
    assert.equal(await count('release_blobs'), 0);
    // The publisher's retry publishes it whole.
    assert.equal(await publishRelease(db.pool, { remote: REMOTE, version: '2.0.0', integrity: null, dir }), true);
    assert.equal((await storedFileHashes(db.pool, REMOTE, '2.0.0')).size, 3);
  });

  it('retention: a removed release takes its list, and the files no other release holds', async () => {
    await publishRelease(db.pool, { remote: REMOTE, version: '1.0.0', integrity: null, dir: folder({ ...shared, 'mf-manifest.json': '{"v":"1.0.0"}' }) });
    await publishRelease(db.pool, { remote: REMOTE, version: '1.1.0', integrity: null, dir: folder({ ...shared, 'mf-manifest.json': '{"v":"1.1.0"}' }) });
    await unregisterRelease(db.pool, REMOTE, '1.0.0');
    assert.equal(await dropUnheldFiles(db.pool), 1, "1.0.0's manifest only");
    assert.equal(await count('release_blobs'), 3);
    await unregisterRelease(db.pool, REMOTE, '1.1.0');
    assert.equal(await dropUnheldFiles(db.pool), 3);
    assert.equal(await count('release_files'), 0);
  });

  it('makes a working copy from the store alone, whole, dated when it was published', async () => {
    const files = { ...shared, 'mf-manifest.json': '{"v":"1.0.0"}' };
    const dir = folder(files);
    await publishRelease(db.pool, { remote: REMOTE, version: '1.0.0', integrity: null, dir });
    rmSync(dir, { recursive: true });
    const copy = join(work, 'copy');
    mkdirSync(copy);
    assert.equal(await materializeRelease(db.pool, copy, REMOTE, '1.0.0'), true);
    for (const [path, text] of Object.entries(files)) assert.equal(readFileSync(join(copy, REMOTE, '1.0.0', path), 'utf8'), text);
    const { rows } = await db.pool.query<{ published_at: Date }>('SELECT published_at FROM releases');
    assert.equal(statSync(join(copy, REMOTE, '1.0.0', 'mf-manifest.json')).mtime.getTime(), rows[0]!.published_at.getTime());
    // Made again at once (another request, another instance): the copy in place stays, nothing is left behind.
    assert.equal(await materializeRelease(db.pool, copy, REMOTE, '1.0.0'), true);
    assert.deepEqual(readdirSync(copy), [REMOTE]);
    assert.equal(await materializeRelease(db.pool, copy, REMOTE, '9.9.9'), false);
    assert.equal(existsSync(join(copy, REMOTE, '9.9.9')), false);
  });
});
