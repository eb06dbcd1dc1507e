// What one instance of the shell's server knows of the store: the environment's rollout map, the
// published releases and the QA tokens that stand, kept in memory and served from there on every
// request. It hears changes through LISTEN/NOTIFY on a connection of its own, reads everything
// again whenever that connection is made again (a notification sent while it was down is never
// heard), and polls the map's version every few seconds as a backstop. The database being away,
// slow or suddenly empty never means "no releases": the last good map stays, and state() says how
// old it is.
import type pg from 'pg';
import { DeployError, messageOf } from '../errors.ts';
import type { Queryable } from './database.ts';
import { QA_TOKENS_CHANNEL, standingQaTokens } from './qaTokens.ts';
import { storeNotifications } from './notifications.ts';
import { listReleases, RELEASES_CHANNEL, type Releases } from './releases.ts';
import { readRollout, ROLLOUT_CHANNEL, type Rollout } from './rollouts.ts';

/** What the instance serves from: the map, its version, the releases and the QA tokens that stand; `error` when the map held does not validate. */
export interface Snapshot {
  version: number;
  rollout: Rollout | null;
  releases: Releases;
  qaTokens: ReadonlySet<string>;
  error?: unknown;
}

export interface MapState {
  version: number;
  listening: boolean;
  stale: boolean;
  error?: string;
  ageMs: number;
}

export interface LiveMap {
  current(): Snapshot;
  state(): MapState;
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `db`: the pg Pool reads go through; `config`: where the listening connection goes; `pollMs`: the
 * backstop's period. Resolves once the first read succeeded (it is retried until then).
 */
export async function watchMap({
  db,
  config,
  environment,
  pollMs = 2_000,
  log = () => {},
  onChange = () => {},
}: {
  db: Queryable;
  config: pg.ClientConfig;
  environment: string;
  pollMs?: number;
  log?: (line: string) => void;
  /** Called once the instance holds a new version of the map (not for the first read). */
  onChange?: (version: number) => void;
}): Promise<LiveMap> {
  let snapshot: Snapshot | null = null;
  let readAt = 0;
  let lastError: unknown = null;
  let closed = false;
  let refreshing: Promise<void> | null = null;
  let again: Promise<void> | null = null;

  async function read() {
    const [map, releases, qaTokens] = await Promise.all([
      readRollout(db, environment).catch((error: unknown): { version: number; rollout: null; error?: unknown } => {
        // A map the store holds but that does not validate (written by hand): with nothing better
        // in memory, requests are told so (an error page with Reload), not given made-up releases.
        if (snapshot || !(error instanceof DeployError)) throw error;
        return { version: 0, rollout: null, error };
      }),
      listReleases(db),
      standingQaTokens(db, environment),
    ]);
    // A map older than the one held (a database restored from an old backup, an empty one) is
    // not taken: members keep what they were given, and the log says why.
    if (snapshot && map.version < snapshot.version) {
      throw new Error(`the store holds version ${map.version} of the ${environment} map, older than the ${snapshot.version} in memory; keeping ${snapshot.version}`);
    }
    const before = snapshot?.version;
    snapshot = { version: map.version, rollout: map.rollout, releases, qaTokens, ...('error' in map && map.error ? { error: map.error } : {}) };
    readAt = Date.now();
    if (lastError) log(`the store answers again; ${environment} map version ${map.version}`);
    lastError = null;
    if (before !== undefined && before !== map.version) onChange(map.version);
  }

  function refresh(): Promise<void> {
    if (refreshing) {
      // A change announced while a read is under way may have committed after that read saw the
      // store: one more read once it ends (shared by every call until then), or the change would
      // wait for the next poll.
      again ??= refreshing.then(() => {
        again = null;
        return refresh();
      });
      return again;
    }
    refreshing = read()
      .catch((error: unknown) => {
        if (!lastError) log(`serving the last good ${environment} map (version ${snapshot?.version ?? 'none'}): ${messageOf(error)}`);
        lastError = error;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  const notifications = storeNotifications(config, {
    name: 'netnet-listen',
    channels: [ROLLOUT_CHANNEL, RELEASES_CHANNEL, QA_TOKENS_CHANNEL],
    onNotification: (channel, payload) => {
      if (channel === RELEASES_CHANNEL || payload.split(' ')[0] === environment) void refresh();
    },
    // Whatever changed while no connection listened.
    onListening: () => refresh(),
  });

  async function poll() {
    if (closed) return;
    try {
      const { rows } = await db.query<{ version: string }>('SELECT version FROM rollouts WHERE environment = $1', [environment]);
      const version = rows[0] ? Number(rows[0].version) : 0;
      if (!snapshot || version !== snapshot.version || lastError) await refresh();
    } catch (error) {
      if (!lastError) log(`serving the last good ${environment} map (version ${snapshot?.version ?? 'none'}): ${messageOf(error)}`);
      lastError = error;
    }
  }

  for (let wait = 250; !snapshot; wait = Math.min(wait * 2, 5_000)) {
    await refresh();
    if (!snapshot) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await notifications.start();
  const poller = setInterval(poll, pollMs);
  poller.unref();

  // The loop above ends only once a read succeeded.
  const first = snapshot as Snapshot;
  return {
    current: () => snapshot ?? first,
    state: () => ({
      version: (snapshot ?? first).version,
      listening: notifications.listening(),
      stale: lastError !== null,
      ...(lastError ? { error: messageOf(lastError) } : {}),
      ageMs: Date.now() - readAt,
    }),
    refresh,
    async close() {
      closed = true;
      clearInterval(poller);
      await notifications.close();
    },
  };
}
