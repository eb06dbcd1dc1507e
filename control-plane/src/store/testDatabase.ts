// A real, empty PostgreSQL for one test file: the embedded server in a folder of its own, migrated,
// opened as its owner (as(role): as one of the site's roles), stopped and removed by close().
// Contract tests run against it, never against a fake.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, readStoreSettings } from './database.ts';
import type { EmbeddedDatabase } from './embedded.ts';
import type { Role } from './roles.ts';

export async function testDatabase({ max = 10 }: { max?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'netnet-db-'));
  const env = { NETNET_DEPLOY_DIR: dir };
  // No DATABASE_URL in `env`: the store is always the embedded server, started here.
  const store = readStoreSettings(env);
  const database = await openDatabase({ store, max });
  const embedded = database.embedded as EmbeddedDatabase;
  return {
    ...database,
    embedded,
    env,
    store,
    dir,
    /** The same database opened as `role` (./roles.ts), as the site's processes open it; closed by the caller. */
    as: (role: Role, { max = 2, actor }: { max?: number; actor?: string } = {}) => openDatabase({ store, max, role, actor }),
    async close() {
      await database.close();
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test file's database (testDatabase()). */
export type TestDatabase = Awaited<ReturnType<typeof testDatabase>>;
