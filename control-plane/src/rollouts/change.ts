// One rollout command applied to an environment's map in the store, as `npm run rollout` and the
// control-plane API both apply it (docs/releases.md): the move (commands.ts) checked
// against the published releases, the compatibility gate on the release it points members at, and
// one compare-and-set with its audit entry (store/rollouts.ts: a change of the same remote landing
// first makes this one a Conflict, nothing written).
import { checkCompatibility, type GateSettings } from '../releases/compatibilityGate.ts';
import { workingCopy } from '../releases/originFolder.ts';
import { promote, rollback, setCanary, setStable } from './commands.ts';
import { DeployError } from '../errors.ts';
import type { Store } from '../store/database.ts';
import { listReleases } from '../store/releases.ts';
import { Conflict, emptyRollout, readRollout, updateRollout, type RemotePlan, type Rollout } from '../store/rollouts.ts';

export const ROLLOUT_COMMANDS = ['stable', 'canary', 'promote', 'rollback'] as const;
export type RolloutCommand = (typeof ROLLOUT_COMMANDS)[number];

export const isRolloutCommand = (value: string): value is RolloutCommand => (ROLLOUT_COMMANDS as readonly string[]).includes(value);

export interface RolloutChange {
  command: RolloutCommand;
  remote: string;
  /** stable, canary: the version. */
  version?: string | undefined;
  /** canary: the share of members, 0–100. */
  percent?: number | undefined;
  /** Rolls out a release the compatibility gate refuses (with a warning). */
  skipGate?: boolean;
  /**
   * The remote's plan as the caller last saw it (null: none): if the map holds another, the change
   * is a Conflict, nothing written. The console sends what it showed, so a person never changes a
   * rollout someone else moved after their page showed it.
   */
  expected?: RemotePlan | null | undefined;
}

/** Plans compared by content: jsonb does not keep the order of an object's keys. */
const canonical = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1))) : inner,
  );

const described = (plan: RemotePlan | undefined) =>
  plan ? [`stable ${plan.stable}`, plan.canary ? `canary ${plan.canary.version} at ${plan.canary.percent}%` : 'no canary'].join(', ') : 'nothing rolled out';

/** Applies `change` to `environment`'s map; the written map and its version. */
export async function changeRollout(
  db: Store,
  environment: string,
  { command, remote, version, percent, skipGate = false, expected }: RolloutChange,
  { actor, reason, warn, gate }: { actor: string; reason?: string | undefined; warn: (line: string) => void; gate: GateSettings },
): Promise<{ version: number; rollout: Rollout }> {
  // Each move gives the new rollout and the release it points members at (`gated`), which the
  // compatibility gate checks once the command itself found it valid: a version that is not
  // published gets that message, not the gate's. Published means registered in the store.
  const releases = await listReleases(db);
  let move: (rollout: Rollout) => { next: Rollout; gated?: string | undefined };
  if (command === 'stable') move = (rollout) => ({ next: setStable(rollout, remote, version ?? '', releases), gated: version });
  else if (command === 'canary') {
    if (percent === undefined) throw new DeployError('canary needs --percent <0-100>.');
    move = (rollout) => ({ next: setCanary(rollout, remote, version ?? '', percent, releases), gated: version });
  } else if (command === 'promote') {
    move = (rollout) => ({ next: promote(rollout, remote), gated: rollout.remotes[remote]?.canary?.version });
  } else move = (rollout) => ({ next: rollback(rollout, remote, releases) });

  // The gate reads the release's manifest in this process's working folder: a copy from the store
  // if this process has none yet (the canary a promote gates is the one the map names now).
  // Only a release the store holds files of is copied, so `remote` and `version` as given are safe here.
  const gated = command === 'promote' ? (await readRollout(db, environment)).rollout?.remotes[remote]?.canary?.version : command === 'rollback' ? undefined : version;
  if (gated !== undefined) await workingCopy(db, gate.deployDir, remote, gated);

  // Applied to the map as it is when written, not as it was first read: a command on another
  // remote may have landed meanwhile (one on this remote makes this one fail: updateRollout).
  return updateRollout(
    db,
    environment,
    (latest) => {
      const plan = latest?.remotes[remote];
      if (expected !== undefined && canonical(plan) !== canonical(expected)) {
        throw new Conflict(`${remote} in ${environment} was changed by someone else first (now ${described(plan)}); nothing was changed.`);
      }
      const moved = move(latest ?? emptyRollout());
      if (moved.gated !== undefined) checkCompatibility({ remote, version: moved.gated, skip: skipGate, warn, gate });
      return moved.next;
    },
    // Why, in the caller's words (the console asks for it): the audit trail keeps it.
    { actor, action: command, remote, reason },
  );
}
