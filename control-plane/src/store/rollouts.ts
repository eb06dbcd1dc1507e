// Each environment's rollout map in the store (rollouts table): per remote the stable version, an
// optional canary { version, percent }, the history of earlier stables (newest last) so a rollback
// can step back, and the versions rolled back for a defect; the QA pin policy (`production`,
// `pinRolledBack`); the guard's recent decisions (`guardHistory`). A remote the map leaves out is
// served from its own build, as before anything was released.
//
// Every change is a compare-and-set on the map's version, recorded in the audit trail (by the
// database's trigger, from what the transaction says of the change) and announced (NOTIFY
// netnet_rollout) in the same transaction. A command that loses the race reads
// the map again and applies its change to it, unless its remote was changed meanwhile: then it
// is refused, never applied over a change its author did not see.
import { isVersion } from '@netnet/rollout';
import { variable } from '@netnet/server-kit';
import { z } from 'zod';
import { DeployError, messageOf } from '../errors.ts';
import { assertRemote } from '../names.ts';
import { transaction, type Queryable, type Store } from './database.ts';
import type { Lease } from './lease.ts';

export interface Canary {
  version: string;
  percent: number;
}

/** One remote in a rollout map. */
export interface RemotePlan {
  stable: string;
  canary?: Canary;
  /** Earlier stables, newest last. */
  history?: string[];
  /** Versions taken back for a defect. */
  rolledBack?: string[];
}

/** What the guard did and why, kept in the map (control-plane/src/guard/guard.ts). */
export interface GuardHistoryEntry {
  at: string;
  remote: string;
  action: string;
  version: string;
  stable: string;
  from: number;
  to?: number;
  reason: string;
}

export interface Rollout {
  remotes: Record<string, RemotePlan>;
  production?: boolean;
  pinRolledBack?: boolean;
  guardHistory?: GuardHistoryEntry[];
}

/** What the audit trail keeps of a change. */
export interface Who {
  /** A person through the CLI (user@host) or the guard (guard@instance). */
  actor?: string;
  /** The command: stable, canary, promote, rollback, widen, import… */
  action?: string;
  /**
   * The remote the change is about: if another change of that remote lands first, this one is
   * refused (DeployError) rather than applied over it.
   */
  remote?: string | undefined;
  /** Why: the guard's verdict, or the reason a person gave (the console asks for one). */
  reason?: string;
  /**
   * The guard's lease: the write lands only while that lease is still the environment's, checked
   * in the same statement (LeaseLost otherwise).
   */
  lease?: Lease;
}

export interface AuditEntry {
  map_version: number;
  at: Date;
  actor: string;
  action: string;
  remote: string | null;
  reason: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

const ENVIRONMENT = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Which environment's rollout map a process serves, guards or changes (a command's --env wins). */
export const ENVIRONMENT_VARIABLES = {
  environment: variable(
    'NETNET_ENV',
    z.string().regex(ENVIRONMENT, 'lowercase letters, digits and "-"').default('local'),
    "the environment whose rollout map the pages use and the commands change (a command's --env wins); production: QA pins need a QA token",
  ),
};
export const ROLLOUT_CHANNEL = 'netnet_rollout';
const MAX_ATTEMPTS = 20;

const isEnvironment = (value: unknown): value is string => typeof value === 'string' && ENVIRONMENT.test(value);

/** `name` (a command's --env, or NETNET_ENV as its config read it), checked. */
export function environmentName(name: string): string {
  if (!isEnvironment(name)) throw new DeployError(`"${name}" is not an environment name (lowercase letters, digits, "-").`);
  return name;
}

export const emptyRollout = (): Rollout => ({ remotes: {} });

export const isPercent = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;

/** Checks a rollout map; throws a DeployError that names the first problem. */
export function validateRollout(value: unknown, source = 'the rollout map'): Rollout {
  const fail = (problem: string): never => {
    throw new DeployError(`${source} is malformed: ${problem}.`);
  };
  if (!isObject(value) || !isObject(value.remotes) || Array.isArray(value.remotes)) {
    return fail('it needs a "remotes" object');
  }
  for (const [remote, plan] of Object.entries(value.remotes)) {
    try {
      assertRemote(remote);
    } catch (error) {
      fail(messageOf(error));
    }
    if (!isObject(plan) || !isVersion(plan.stable)) return fail(`${remote} needs a "stable" version`);
    if (plan.canary !== undefined) {
      const { version, percent } = isObject(plan.canary) ? plan.canary : {};
      if (!isVersion(version)) fail(`${remote}'s canary needs a version`);
      if (!isPercent(percent)) fail(`${remote}'s canary percent must be a number from 0 to 100`);
    }
    if (plan.history !== undefined && !(Array.isArray(plan.history) && plan.history.every(isVersion))) {
      fail(`${remote}'s history must be a list of versions`);
    }
    if (plan.rolledBack !== undefined && !(Array.isArray(plan.rolledBack) && plan.rolledBack.every(isVersion))) {
      fail(`${remote}'s rolledBack must be a list of versions`);
    }
  }
  // Pin policy (control-plane/src/rollouts/remoteMap.ts): both optional.
  for (const flag of ['production', 'pinRolledBack']) {
    if (value[flag] !== undefined && typeof value[flag] !== 'boolean') fail(`"${flag}" must be true or false`);
  }
  return value as unknown as Rollout;
}

/** The environment's map and its version; { version: 0, rollout: null } when nothing was ever rolled out there. */
export async function readRollout(db: Queryable, environment: string): Promise<{ version: number; rollout: Rollout | null }> {
  const { rows } = await db.query<{ version: string; map: unknown }>('SELECT version, map FROM rollouts WHERE environment = $1', [environment]);
  const [row] = rows;
  if (!row) return { version: 0, rollout: null };
  return { version: Number(row.version), rollout: validateRollout(row.map, `the ${environment} map in the store`) };
}

/** Thrown when the guard's lease was lost before its write: nothing was written. */
export class LeaseLost extends Error {}

/** Thrown when another change of the same remote landed first: nothing was written. */
export class Conflict extends DeployError {}

const describePlan = (plan: RemotePlan | undefined) =>
  plan ? [`stable ${plan.stable}`, plan.canary && `canary ${plan.canary.version} at ${plan.canary.percent}%`].filter(Boolean).join(', ') : 'its own build';

const samePlan = (a: RemotePlan | null | undefined, b: RemotePlan | null | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Read-change-write of an environment's map as one compare-and-set. `change` gets the map as it
 * is (null: none yet) and returns the new one; `who` is what the audit trail keeps.
 */
export async function updateRollout(
  db: Store,
  environment: string,
  change: (latest: Rollout | null) => unknown,
  { actor, action, remote, reason, lease }: Who = {},
): Promise<{ version: number; rollout: Rollout }> {
  let seen: RemotePlan | null | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await readRollout(db, environment);
    const plan = remote === undefined ? undefined : current.rollout?.remotes?.[remote];
    if (remote && seen !== undefined && !samePlan(seen, plan)) {
      throw new Conflict(
        `${remote} in ${environment} was changed by someone else meanwhile (now ${describePlan(plan)}); nothing was changed. ` +
          'Check `npm run rollout -- status` and try again.',
      );
    }
    if (seen === undefined) seen = plan ?? null;
    const next = validateRollout(change(current.rollout ? structuredClone(current.rollout) : null), 'the new rollout map');
    const written = await transaction(db, async (client) => {
      // What the database's audit row says of this change (migrations/003_roles_and_audit.sql).
      await client.query(
        "SELECT set_config('netnet.actor', $1, true), set_config('netnet.action', $2, true), set_config('netnet.remote', $3, true), set_config('netnet.reason', $4, true)",
        [actor ?? 'unknown', action ?? 'change', remote ?? '', reason ?? ''],
      );
      const fenced = lease
        ? 'AND EXISTS (SELECT 1 FROM guard_leases l WHERE l.environment = $1 AND l.holder = $4 AND l.fence = $5 AND l.expires_at > now())'
        : '';
      const params = [environment, JSON.stringify(next), current.version, ...(lease ? [lease.holder, lease.fence] : [])];
      const result =
        current.version === 0
          ? await client.query<{ version: string }>(
              `INSERT INTO rollouts (environment, version, map) SELECT $1, 1, $2::jsonb WHERE $3::bigint = 0 ${fenced}
               ON CONFLICT (environment) DO NOTHING RETURNING version`,
              params,
            )
          : await client.query<{ version: string }>(
              `UPDATE rollouts SET map = $2::jsonb, version = version + 1, changed_at = now()
               WHERE environment = $1 AND version = $3 ${fenced} RETURNING version`,
              params,
            );
      const [row] = result.rows;
      if (result.rowCount === 0 || !row) return null;
      const version = Number(row.version);
      await client.query('SELECT pg_notify($1, $2)', [ROLLOUT_CHANNEL, `${environment} ${version}`]);
      return version;
    });
    if (written !== null) return { version: written, rollout: next };
    if (lease) {
      const { rowCount } = await db.query(
        'SELECT 1 FROM guard_leases WHERE environment = $1 AND holder = $2 AND fence = $3 AND expires_at > now()',
        [environment, lease.holder, lease.fence],
      );
      if (rowCount === 0) throw new LeaseLost(`the guard's lease on ${environment} (fence ${lease.fence}) is no longer held; nothing was written`);
    }
  }
  throw new DeployError(`${environment}'s map kept changing under this command (${MAX_ATTEMPTS} tries); nothing was changed. Try again.`);
}

/**
 * The guard's rollback of the canary it judged, through the store's own function
 * (migrations/003_roles_and_audit.sql, netnet_guard_rollback): the one change of a map a shell
 * instance's role may make, and only while `lease` is still the environment's. The function works
 * out the new map itself (the canary leaves, its version joins rolledBack, the guard's entry joins
 * guardHistory, the last `keepHistory` kept). LeaseLost, or Conflict when the canary is no longer
 * the one judged: nothing written.
 */
export async function guardRollback(
  db: Queryable,
  environment: string,
  { lease, remote, stable, canary, at, reason, keepHistory }: { lease: Lease; remote: string; stable: string; canary: Canary; at: string; reason: string; keepHistory: number },
): Promise<void> {
  const { rows } = await db.query<{ outcome: string }>('SELECT netnet_guard_rollback($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) AS outcome', [
    environment,
    lease.holder,
    lease.fence,
    remote,
    stable,
    canary.version,
    canary.percent,
    at,
    reason,
    keepHistory,
  ]);
  const outcome = rows[0]?.outcome;
  if (outcome === 'lease-lost') throw new LeaseLost(`the guard's lease on ${environment} (fence ${lease.fence}) is no longer held; nothing was written`);
  if (outcome !== 'rolled-back') throw new Conflict(`${remote}'s canary in ${environment} changed before the guard's rollback; nothing was written.`);
}

/** The latest audit entries of an environment, newest first. */
export async function auditTrail(db: Queryable, environment: string, limit = 20): Promise<AuditEntry[]> {
  const { rows } = await db.query<Omit<AuditEntry, 'map_version'> & { map_version: string }>(
    "SELECT map_version, at, actor, action, remote, reason FROM audit WHERE kind = 'map' AND environment = $1 ORDER BY id DESC LIMIT $2",
    [environment, limit],
  );
  return rows.map((row) => ({ ...row, map_version: Number(row.map_version) }));
}

/** Every environment's current map. */
export async function currentMaps(db: Queryable): Promise<{ environment: string; map: Rollout }[]> {
  return (await db.query<{ environment: string; map: Rollout }>('SELECT environment, map FROM rollouts ORDER BY environment')).rows;
}

/**
 * Every map in effect since `since`, from the audit trail: each written since then (`in_window`),
 * and the one each environment had when the window began.
 */
export async function mapsInEffectSince(db: Queryable, since: Date): Promise<{ environment: string; map_version: string; at: Date; map: Rollout; in_window: boolean }[]> {
  const { rows } = await db.query<{ environment: string; map_version: string; at: Date; map: Rollout; in_window: boolean }>(
    `SELECT environment, map_version, at, map, true AS in_window FROM audit WHERE kind = 'map' AND at >= $1
     UNION ALL
     (SELECT DISTINCT ON (environment) environment, map_version, at, map, false AS in_window FROM audit WHERE kind = 'map' AND at < $1
      ORDER BY environment, at DESC, id DESC)`,
    [since],
  );
  return rows;
}

/** Holds every map still until the transaction ends: a rollout command waits. */
export async function lockMaps(db: Queryable): Promise<void> {
  await db.query('LOCK TABLE rollouts IN SHARE MODE');
}
