// The store the cluster's instances share (docs/store.md, "The database"), as `npm run
// bench:cluster` reaches it: opened with the same openDatabase() the site uses (DATABASE_URL, else
// the embedded PostgreSQL `npm run start:cluster` runs in the deploy folder), releases published
// for the run and removed after it, the environment's map read and put back as found.
// Every import of the control plane the benchmark makes is here, one line per package entry.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setCanary, setStable } from '@netnet/control-plane/rollouts';
import { ENVIRONMENT_VARIABLES } from '@netnet/control-plane/config';
import { openDatabase, listReleases, RELEASES_CHANNEL, environmentName, readRollout, readStoreSettings, updateRollout } from '@netnet/control-plane/store';
import { readConfig } from '@netnet/server-kit';
import { root } from '../../scripts/build.mjs';
import { copyBuildAs } from '../support/buildCopy.mjs';
import { site } from './site.mjs';

export { setCanary, setStable };

const execute = promisify(execFile);
const ACTOR = `bench-cluster@${hostname()}`;

/** The environment the cluster serves: the instances inherit this process's NETNET_ENV (default local). */
export const environment = environmentName(readConfig(ENVIRONMENT_VARIABLES, process.env).environment);

/**
 * The store, opened as the site opens it. Never stops the embedded PostgreSQL: the cluster
 * started it and stops it.
 */
export async function openStore() {
  const database = await openDatabase({ store: readStoreSettings(process.env), max: 4 });
  const { pool } = database;
  let closing = null;

  /**
   * A compare-and-set of the environment's map (updateRollout: audit row and NOTIFY in the same
   * transaction), resolving with the moment (performance.now()) PostgreSQL acknowledged its COMMIT:
   * the instances hear the NOTIFY from then on, so that is where propagation starts.
   */
  async function change(move, { action, remote }) {
    let committedAt = null;
    // The transaction's client, seen through a proxy that notes when its COMMIT came back.
    const timed = {
      query: (text, values) => pool.query(text, values),
      async connect() {
        const client = await pool.connect();
        return new Proxy(client, {
          get(target, property) {
            if (property === 'query') {
              return async (text, values) => {
                const result = await target.query(text, values);
                if (text === 'COMMIT') committedAt = performance.now();
                return result;
              };
            }
            const value = Reflect.get(target, property);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
    };
    const written = await updateRollout(timed, environment, (latest) => move(latest ?? { remotes: {} }), { actor: ACTOR, action, remote });
    return { ...written, committedAt };
  }

  return {
    pool,
    /** The environment's map as the store holds it now (null: nothing rolled out there). */
    readMap: async () => (await readRollout(pool, environment)).rollout,
    /** The releases the store lists: what a rollout move may point at. */
    releases: () => listReleases(pool),
    change,
    /** Writes `map` back (null: none) as every change is written, unless the store holds it already. */
    async putBack(map) {
      const target = map ?? { remotes: {} };
      const now = JSON.stringify((await readRollout(pool, environment)).rollout);
      if (now === JSON.stringify(map) || now === JSON.stringify(target)) return false;
      await updateRollout(pool, environment, () => structuredClone(target), {
        actor: ACTOR,
        action: 'restore',
        reason: 'bench:cluster puts the map back as it found it',
      });
      return true;
    },
    /** Closes the pool (once, however many callers: a Ctrl-C's cleanup and the run's own). */
    close: () => (closing ??= database.close()),
  };
}

/**
 * Publishes copies of remotes' production builds (nothing is built) as `releases` ([{ remote,
 * version }]), each with `npm run release -- <remote> --version <v> --from <copy>` as a team's CI
 * does (docs/deploy.md, "What a team's CI runs to publish a release"). Returns the undo: the
 * releases' files and their registration gone, the instances told (so none lists them any more),
 * the deploy folder as found.
 */
export async function publishCopies(pool, releases) {
  const staging = mkdtempSync(join(tmpdir(), 'netnet-bench-cluster-'));
  const folderOf = (remote) => join(site.readSite().deployDir, remote);
  const remotes = [...new Set(releases.map(({ remote }) => remote))];
  const hadFolder = new Set(remotes.filter((remote) => existsSync(folderOf(remote))));
  const remove = async () => {
    for (const { remote, version } of releases) rmSync(join(folderOf(remote), version), { recursive: true, force: true });
    for (const remote of remotes) {
      const versions = releases.filter((release) => release.remote === remote).map(({ version }) => version);
      await pool.query('DELETE FROM releases WHERE remote = $1 AND version = ANY($2)', [remote, versions]);
      const folder = folderOf(remote);
      if (!hadFolder.has(remote) && existsSync(folder) && readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
    }
    // Instances re-read the releases on this channel; a deletion announces nothing by itself.
    await pool.query('SELECT pg_notify($1, $2)', [RELEASES_CHANNEL, 'bench:cluster unpublished its releases']);
    rmSync(staging, { recursive: true, force: true });
  };
  try {
    for (const { remote, version } of releases) {
      const copy = join(staging, remote, version);
      copyBuildAs({ root, remote, version, copy });
      await execute('npm', ['run', '--silent', 'release', '--', remote, '--version', version, '--from', copy], {
        cwd: root,
        env: { ...process.env, NO_UPDATE_NOTIFIER: '1' },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 120_000,
      });
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return remove;
}

const releaseKeys = (releases) => releases.map(({ remote, version }) => `${remote} ${version}`);

/**
 * Release-health counts of `releases` ([{ remote, version }]) in the environment, summed over
 * every minute: Map<"remote release channel metric", count> (metric: outcome:<outcome> or
 * lcp:<bucket>, control-plane/src/store/health.ts).
 */
export async function healthCounts(pool, releases) {
  const { rows } = await pool.query(
    `SELECT remote, release, channel, metric, sum(count)::bigint AS count FROM health_counts
     WHERE environment = $1 AND remote || ' ' || release = ANY($2) GROUP BY remote, release, channel, metric`,
    [environment, releaseKeys(releases)],
  );
  return new Map(rows.map((row) => [`${row.remote} ${row.release} ${row.channel} ${row.metric}`, Number(row.count)]));
}

/** Removes the counts of releases published for the run: the environment's figures as before it. */
export async function forgetHealth(pool, releases) {
  await pool.query("DELETE FROM health_counts WHERE environment = $1 AND remote || ' ' || release = ANY($2)", [environment, releaseKeys(releases)]);
}
