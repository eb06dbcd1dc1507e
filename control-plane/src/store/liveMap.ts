// What one instance of the shell's server knows of the store: the environment's rollout map and
// the published releases, kept in memory and served from there on every request. It hears changes
// through LISTEN/NOTIFY on a connection of its own, reads everything again whenever that
// connection is made again (a notification sent while it was down is never heard), and polls the
// map's version every few seconds as a backstop. The database being away, slow or suddenly
// empty never means "no releases": the last good map stays, and state() says how old it is.
import pg from 'pg';
import { listReleases, RELEASES_CHANNEL } from './releases.ts';
import { DeployError } from '../deploy/tree.ts';
import { readRollout, ROLLOUT_CHANNEL } from './rollouts.ts';

/**
 * @param {object} options
 * @param options.db the pg Pool reads go through
 * @param {import('pg').ClientConfig} options.config where the listening connection goes
 * @param {string} options.environment
 * @param {number} [options.pollMs] the backstop's period
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<{ current(): { version: number, rollout: object | null, releases: Map<string, object[]>, error?: Error }, state(): object, refresh(): Promise<void>, close(): Promise<void> }>}
 *   resolves once the first read succeeded (it is retried until then)
 */
export async function watchMap({ db, config, environment, pollMs = 2_000, log = () => {} }) {
  let snapshot = null;
  let readAt = 0;
  let lastError = null;
  let listening = false;
  let listener = null;
  let closed = false;
  let refreshing = null;

  async function read() {
    const [map, releases] = await Promise.all([
      readRollout(db, environment).catch((error) => {
        // A map the store holds but that does not validate (written by hand): with nothing better
        // in memory, requests are told so (an error page with Reload), not given made-up releases.
        if (snapshot || !(error instanceof DeployError)) throw error;
        return { version: 0, rollout: null, error };
      }),
      listReleases(db),
    ]);
    // A map older than the one held (a database restored from an old backup, an empty one) is
    // not taken: members keep what they were given, and the log says why.
    if (snapshot && map.version < snapshot.version) {
      throw new Error(`the store holds version ${map.version} of the ${environment} map, older than the ${snapshot.version} in memory; keeping ${snapshot.version}`);
    }
    snapshot = { version: map.version, rollout: map.rollout, releases, ...(map.error && { error: map.error }) };
    readAt = Date.now();
    if (lastError) log(`the store answers again; ${environment} map version ${map.version}`);
    lastError = null;
  }

  function refresh() {
    refreshing ??= read()
      .catch((error) => {
        if (!lastError) log(`serving the last good ${environment} map (version ${snapshot?.version ?? 'none'}): ${error.message}`);
        lastError = error;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  async function listen() {
    if (closed) return;
    const client = new pg.Client({ ...config, connectionTimeoutMillis: 3_000, keepAlive: true, application_name: 'netnet-listen' });
    listener = client;
    const reconnect = () => {
      if (listener !== client) return;
      listening = false;
      listener = null;
      client.end().catch(() => {});
      if (!closed) setTimeout(listen, 1_000).unref();
    };
    client.on('error', reconnect);
    client.on('end', reconnect);
    client.on('notification', ({ channel, payload }) => {
      if (channel === RELEASES_CHANNEL || payload?.split(' ')[0] === environment) void refresh();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${ROLLOUT_CHANNEL}`);
      await client.query(`LISTEN ${RELEASES_CHANNEL}`);
      listening = true;
      // Whatever changed while this connection was down.
      await refresh();
    } catch {
      reconnect();
    }
  }

  async function poll() {
    if (closed) return;
    try {
      const { rows } = await db.query('SELECT version FROM rollouts WHERE environment = $1', [environment]);
      const version = rows.length ? Number(rows[0].version) : 0;
      if (!snapshot || version !== snapshot.version || lastError) await refresh();
    } catch (error) {
      if (!lastError) log(`serving the last good ${environment} map (version ${snapshot?.version ?? 'none'}): ${error.message}`);
      lastError = error;
    }
  }

  for (let wait = 250; !snapshot; wait = Math.min(wait * 2, 5_000)) {
    await refresh();
    if (!snapshot) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await listen();
  const poller = setInterval(poll, pollMs);
  poller.unref();

  return {
    current: () => snapshot,
    state: () => ({
      version: snapshot.version,
      listening,
      stale: lastError !== null,
      ...(lastError && { error: lastError.message }),
      ageMs: Date.now() - readAt,
    }),
    refresh,
    async close() {
      closed = true;
      clearInterval(poller);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
    },
  };
}
