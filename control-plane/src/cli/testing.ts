// What the tests of the release, rollout and QA-token commands share: one real, empty PostgreSQL
// per test file (the embedded server in a folder of its own, control-plane/src/store/testDatabase.ts)
// that the commands reach through DATABASE_URL, emptied before each test, and the commands run as
// a release owner runs them against a throwaway deploy tree. One server per file rather than one
// per deploy tree: starting one costs a second or more, and a file runs tens of tests.
// commandFixtures(), below, is the rest of what the release and rollout command tests share.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach } from 'node:test';
import type { Counted } from '../health/figures.ts';
import { createHealthStore } from '../health/counts.ts';
import { testDatabase } from '../store/testDatabase.ts';
import { ROLE_NAMES, ROLE_URLS } from '../store/roles.ts';
import { readRollout, updateRollout, type Rollout } from '../store/rollouts.ts';

/** How a command ended: its exit code (null: killed by a signal) and its output. */
export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

type Script = 'release' | 'rollout' | 'qa-token';

export const root = fileURLToPath(new URL('../../..', import.meta.url));
// The commands run as `npm run release` runs them: from their bundles (control-plane/bin/run.mjs).
const RUN = join(root, 'control-plane', 'bin', 'run.mjs');

const TABLES = ['releases', 'release_files', 'release_blobs', 'rollouts', 'audit', 'health_counts', 'guard_leases', 'qa_tokens'];

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
    cli: (script: Script, ...args: string[]) => node([RUN, script, ...args]),
    /** A command with extra environment variables. */
    cliWith: (extra: NodeJS.ProcessEnv, script: Script, ...args: string[]) => node([RUN, script, ...args], extra),
    /** The same command, not waiting for it: for commands run at the same time. */
    cliAsync(script: Script, ...args: string[]) {
      const child = spawn(process.execPath, [RUN, script, ...args], { cwd: root, env: cliEnv() });
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

/**
 * What the release and rollout command tests share (release, rollout, rolloutRefusals,
 * concurrentRollouts, compatibilityGate and releaseHealth.test.ts). Called once at the top of a
 * test file, it registers the file's hooks: the harness started before its first test and closed
 * after its last, and before each test an empty deploy tree and builds folder, removed after it.
 * `deploy` and `builds` are those folders (the same paths for every test of the file, emptied in
 * between); `harness` is the file's, to use inside tests and hooks, once it has started.
 */
export function commandFixtures() {
  // One folder a file, the two inside it made anew for each test: <tmp>/netnet-XXXXXX/deploy is no
  // longer than the <tmp>/netnet-deploy-XXXXXX it stands for, which matters for the embedded
  // server's socket in <deploy>/.database (../store/embedded.ts).
  const base = mkdtempSync(join(tmpdir(), 'netnet-'));
  const deploy = join(base, 'deploy');
  const builds = join(base, 'builds');
  let started: CliHarness | undefined;

  /** The file's harness: each use reads the one `before` started. */
  const harness = new Proxy({} as CliHarness, {
    get(_target, key) {
      if (!started) throw new Error('the command harness starts in before(): use it inside a test or a hook');
      return Reflect.get(started, key);
    },
  });

  before(async () => {
    started = await cliHarness({ deployDir: () => deploy, strip: ['NETNET_SHELL_MANIFEST'] });
  });
  after(async () => {
    await started?.close();
    rmSync(base, { recursive: true, force: true });
  });

  beforeEach(async () => {
    mkdirSync(deploy);
    mkdirSync(builds);
    await harness.reset();
  });
  afterEach(() => {
    rmSync(deploy, { recursive: true, force: true });
    rmSync(builds, { recursive: true, force: true });
  });

  const cli = (...args: Parameters<CliHarness['cli']>) => harness.cli(...args);
  /** The environment's map: the tests that read it have rolled something out there. */
  const rollout = async (environment?: string): Promise<Rollout> => {
    const map = await harness.rollout(environment);
    assert.ok(map, 'a map in the store');
    return map;
  };
  const sha384 = (content: string | Buffer) => `sha384-${createHash('sha384').update(content).digest('base64')}`;
  const actor = `${userInfo().username}@${hostname()}`;

  /** The releases the store lists, as "remote version" lines, oldest first. */
  async function registered() {
    const { rows } = await harness.db.query<{ release: string }>("SELECT remote || ' ' || version AS release FROM releases ORDER BY remote, version");
    return rows.map((row) => row.release);
  }

  const shared = (name: string, requiredVersion: string, version = requiredVersion.replace(/^\D+/, '')) => ({ name, version, singleton: true, requiredVersion });

  /**
   * The `shared` list of a production build of the current code, as webpack.shared.js makes it:
   * the singletons at the ranges of shared/package.json, and @netnet/shared at ^its version.
   */
  function sharedOfThisCode() {
    const pkg = JSON.parse(readFileSync(join(root, 'shared/package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };
    const singletons = { react: 'react', 'react/jsx-runtime': 'react', 'react-dom': 'react-dom', 'react-dom/client': 'react-dom', jotai: 'jotai' };
    return [...Object.entries(singletons).map(([name, from]) => shared(name, pkg.dependencies[from] ?? '')), shared(pkg.name, `^${pkg.version}`)];
  }

  /** A stand-in for a production build of a remote at a version; its manifest declares `sharedList`. */
  function fakeBuild(remote: string, version: string, name = remote.replace('-', '_'), sharedList: unknown = sharedOfThisCode()) {
    const dir = join(builds, `${remote}-${version}-${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mf-manifest.json'), JSON.stringify({ name, metaData: { buildInfo: { buildVersion: version } }, shared: sharedList }));
    writeFileSync(join(dir, 'remoteEntry.js'), `/* ${remote} ${version} */`);
    return dir;
  }

  const publish = (remote: string, version: string) => cli('release', remote, '--version', version, '--from', fakeBuild(remote, version));

  return { deploy, builds, harness, cli, rollout, sha384, actor, registered, shared, sharedOfThisCode, fakeBuild, publish };
}
