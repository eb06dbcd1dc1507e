// What the tests of the release, rollout and QA-token commands share: one real, empty PostgreSQL
// per test file (the embedded server in a folder of its own, control-plane/src/store/testDatabase.ts)
// that the commands reach through DATABASE_URL, emptied before each test, and the commands run as
// a release owner runs them against a throwaway deploy tree. One server per file rather than one
// per deploy tree: starting one costs a second or more, and a file runs tens of tests.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Counted } from '../health/figures.ts';
import { createHealthStore } from '../health/counts.ts';
import { testDatabase } from '../store/testDatabase.ts';
import { ROLE_NAMES, ROLE_URLS } from '../store/roles.ts';
import { readRollout, updateRollout } from '../store/rollouts.ts';

/** How a command ended: its exit code (null: killed by a signal) and its output. */
export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

type Script = 'release' | 'rollout' | 'qa-token';

export const root = fileURLToPath(new URL('../../..', import.meta.url));
// The commands are TypeScript, run as `npm run release` runs them: under the tsx loader.
const TSX = ['--import', import.meta.resolve('tsx')];
const bin = (script: Script) => join(root, 'control-plane', 'bin', `${script}.ts`);

const TABLES = ['releases', 'rollouts', 'audit', 'health_counts', 'guard_leases', 'qa_tokens'];

/**
 * Starts the file's database. `deployDir()` gives the deploy tree of the test under way; `strip`:
 * variables of the caller's environment that would change what the commands do.
 */
export async function cliHarness({ deployDir, strip = [] }: { deployDir: () => string; strip?: string[] }) {
  const database = await testDatabase({ max: 4 });
  const { host, port, user, database: name } = database.config;
  const urlOf = (login: string) => `postgresql://${login}@/${name ?? ''}?host=${encodeURIComponent(host ?? '')}&port=${port ?? ''}`;
  const url = urlOf(user ?? '');
  const db = database.pool;

  /**
   * The environment the commands run with: this test's deploy tree and database (the owner's
   * login to migrate, the CLI's role for the commands' work, as an operator's job has them),
   * nothing of the caller's that would change them.
   */
  function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const env = { ...process.env };
    for (const variable of ['NETNET_ENV', 'NETNET_DEPLOY_URL', 'DATABASE_URL', ...Object.values(ROLE_URLS), ...strip]) delete env[variable];
    return { ...env, NETNET_DEPLOY_DIR: deployDir(), DATABASE_URL: url, [ROLE_URLS.cli]: urlOf(ROLE_NAMES.cli), ...extra };
  }

  /** `node <args>` to its end: { code, out, err }. */
  function node(args: string[], extra: NodeJS.ProcessEnv = {}): CliResult {
    const result = spawnSync(process.execPath, args, { cwd: root, env: cliEnv(extra), encoding: 'utf8' });
    return { code: result.status, out: result.stdout, err: result.stderr };
  }

  return {
    db,
    url,
    cliEnv,
    node,
    /** A command to its end, e.g. cli('rollout', 'status'). */
    cli: (script: Script, ...args: string[]) => node([...TSX, bin(script), ...args]),
    /** A command with extra environment variables. */
    cliWith: (extra: NodeJS.ProcessEnv, script: Script, ...args: string[]) => node([...TSX, bin(script), ...args], extra),
    /** The same command, not waiting for it: for commands run at the same time. */
    cliAsync(script: Script, ...args: string[]) {
      const child = spawn(process.execPath, [...TSX, bin(script), ...args], { cwd: root, env: cliEnv() });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk.toString()));
      child.stderr.on('data', (chunk) => (err += chunk.toString()));
      const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, out, err })));
      return Object.assign(done, { child });
    },
    /** Every table emptied: each test starts from a store where nothing was ever released or rolled out. */
    reset: () => db.query(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY`),
    /** The environment's map as the store holds it (null: nothing rolled out there). */
    rollout: async (environment = 'local') => (await readRollout(db, environment)).rollout,
    /** The map and its version. */
    readRollout: (environment = 'local') => readRollout(db, environment),
    /** Sets a whole map, as an operator importing one would: a compare-and-set with its audit entry. */
    setRollout: (map: unknown, environment = 'local') => updateRollout(db, environment, () => map, { actor: 'test', action: 'import' }),
    /** Reports as the site's collector records them (control-plane/src/health/counts.ts). */
    async reportsArrived(reports: Counted[], at = Date.now(), environment = 'local') {
      const store = createHealthStore({ db, environment });
      await store.append(reports, at);
      await store.close();
    },
    /** Stops the database and removes its folder. */
    close: () => database.close(),
  };
}

export type CliHarness = Awaited<ReturnType<typeof cliHarness>>;
