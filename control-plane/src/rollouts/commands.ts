// The release owner's moves on a rollout, as functions from the old rollout to the new one.
// Each checks that what it points at is published — registered in the store, which lists a
// release once its files are in place (control-plane/bin/release.ts) — so the map never names a
// missing release. The callers pass the store's list (listReleases()).
import { DeployError } from '../errors.ts';
import { assertRemote, assertVersion } from '../names.ts';
import type { Releases } from '../store/releases.ts';
import { isPercent, type RemotePlan, type Rollout } from '../store/rollouts.ts';

const clone = (rollout: Rollout): Rollout => structuredClone(rollout);

// Versions taken back for a defect stay listed (rolledBack), so QA cannot pin them by accident
// (control-plane/src/rollouts/remoteMap.ts); choosing one again on purpose takes it off the list.
function rolledBackExcept(plan: RemotePlan | undefined, version: string): { rolledBack?: string[] } {
  const list = (plan?.rolledBack ?? []).filter((earlier) => earlier !== version);
  return list.length ? { rolledBack: list } : {};
}

const withRolledBack = (plan: RemotePlan, version: string) => ({ rolledBack: [...(plan.rolledBack ?? []).filter((v) => v !== version), version] });

// `--percent`: a whole number from 0 to 100 in plain decimal digits, "%" allowed after it. Nothing
// Number() would also read (" 5", "0x10", "1e1", "10.5", "+5", "05") — a share is typed by a
// person, and a typo must be refused, not turned into another share.
const PERCENT = /^(?:100|[1-9]?[0-9])%?$/;

/** The percent typed after --percent, or a DeployError saying what is accepted. */
export function parsePercent(text: unknown): number {
  if (typeof text !== 'string' || !PERCENT.test(text)) {
    throw new DeployError(`--percent takes a whole number from 0 to 100, like 10 (got "${text ?? ''}").`);
  }
  return Number.parseInt(text, 10);
}

function assertPublished(remote: string, version: string, releases: Releases) {
  assertVersion(version);
  if (!releases.get(remote)?.some((release) => release.version === version)) {
    throw new DeployError(`${remote} ${version} is not published. Publish it first: npm run release -- ${remote} --version ${version}`);
  }
}

function planOf(rollout: Rollout, remote: string): RemotePlan {
  const plan = rollout.remotes[remote];
  if (!plan) {
    throw new DeployError(`${remote} has no stable release in this environment yet. Set one first: npm run rollout -- stable ${remote} <version>`);
  }
  return plan;
}

/** Makes a version the stable one at once (the first release, or a hotfix); the old stable goes to history. */
export function setStable(rollout: Rollout, remote: string, version: string, releases: Releases): Rollout {
  assertRemote(remote);
  assertPublished(remote, version, releases);
  const next = clone(rollout);
  const plan = next.remotes[remote];
  if (plan?.stable === version) throw new DeployError(`${remote} ${version} is already the stable release.`);
  next.remotes[remote] = {
    stable: version,
    ...(plan?.canary && plan.canary.version !== version ? { canary: plan.canary } : {}),
    history: plan ? [...(plan.history ?? []), plan.stable] : [],
    ...rolledBackExcept(plan, version),
  };
  return next;
}

/** Sends a share of members (0–100 %) to another version; run it again to change the share. */
export function setCanary(rollout: Rollout, remote: string, version: string, percent: number, releases: Releases): Rollout {
  assertRemote(remote);
  if (!isPercent(percent)) throw new DeployError(`The canary percent must be a number from 0 to 100 (got ${String(percent)}).`);
  assertPublished(remote, version, releases);
  const next = clone(rollout);
  const plan = planOf(next, remote);
  if (plan.stable === version) throw new DeployError(`${remote} ${version} is the stable release; a canary must be another version.`);
  plan.canary = { version, percent };
  delete plan.rolledBack;
  Object.assign(plan, rolledBackExcept(planOf(rollout, remote), version));
  return next;
}

/** The canary becomes stable for everyone; the old stable goes to history. */
export function promote(rollout: Rollout, remote: string): Rollout {
  assertRemote(remote);
  const next = clone(rollout);
  const plan = planOf(next, remote);
  if (!plan.canary) throw new DeployError(`${remote} has no canary to promote.`);
  next.remotes[remote] = {
    stable: plan.canary.version,
    history: [...(plan.history ?? []), plan.stable],
    ...rolledBackExcept(plan, plan.canary.version),
  };
  return next;
}

/** Drops the canary; with none, the previous stable comes back. */
export function rollback(rollout: Rollout, remote: string, releases: Releases): Rollout {
  assertRemote(remote);
  const next = clone(rollout);
  const plan = planOf(next, remote);
  if (plan.canary) {
    Object.assign(plan, withRolledBack(plan, plan.canary.version));
    delete plan.canary;
    return next;
  }
  const history = [...(plan.history ?? [])];
  const previous = history.pop();
  if (!previous) throw new DeployError(`${remote} has no canary and no earlier stable release to roll back to.`);
  assertPublished(remote, previous, releases);
  next.remotes[remote] = { stable: previous, history, ...withRolledBack(plan, plan.stable) };
  return next;
}
