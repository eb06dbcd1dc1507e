// Retention: `npm run rollout -- prune [--apply]` removes releases nobody can be using any more
// from the store (their files with them) and from this process's working folder (docs/releases.md,
// "Removing old releases"). Releases are shared by every environment (one origin, one releases
// table), so what stays is decided over all of them. A release is kept when it is named
//  - by any environment's current map: stable, canary, history (a rollback steps back to it),
//    rolledBack (the pin policy lists it) or the guard's recent decisions;
//  - by any map that was in effect in the last 30 days (the audit trail keeps every map with its
//    time): a member may still have a tab open that loaded it, whose lazy chunks must still load.
//    That is every map written in the window, and the one each environment had when it began;
//  - or it was published in the last 30 days: it may be about to be rolled out.
// Everything else goes: unregistered first (so no instance offers it as pinnable any more), then
// its folder removed. Nothing is removed without --apply.
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import site from '@netnet/site';
import { transaction, type Queryable, type Store } from '../store/database.ts';
import { listReleases, publishedTimes, unregisterRelease } from '../store/releases.ts';
import { dropUnheldFiles } from '../store/releaseFiles.ts';
import { currentMaps, lockMaps, mapsInEffectSince, type Rollout } from '../store/rollouts.ts';
import { publishedVersions, releaseDir } from './originFolder.ts';
import { compareVersions } from '../names.ts';

export const RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface KeptRelease {
  remote: string;
  version: string;
  /** Why it stays, e.g. "stable in production", "history of local in a map of 2026-11-10 (v12)". */
  reasons: string[];
}

export interface RemovedRelease {
  remote: string;
  version: string;
  /** Where it is: in the store, in the origin folder, or both. */
  registered: boolean;
  folder: boolean;
}

export interface PrunePlan {
  /** The start of the retention window. */
  since: Date;
  keep: KeptRelease[];
  remove: RemovedRelease[];
}

const key = (remote: string, version: string) => `${remote} ${version}`;
const day = (at: Date) => at.toISOString().slice(0, 10);

/** Every version a map names, by remote, with the part of the map that names it. */
export function versionsNamedBy(rollout: Rollout): { remote: string; version: string; as: string }[] {
  const named: { remote: string; version: string; as: string }[] = [];
  for (const [remote, plan] of Object.entries(rollout.remotes ?? {})) {
    named.push({ remote, version: plan.stable, as: 'stable' });
    if (plan.canary) named.push({ remote, version: plan.canary.version, as: 'canary' });
    for (const version of plan.history ?? []) named.push({ remote, version, as: 'history' });
    for (const version of plan.rolledBack ?? []) named.push({ remote, version, as: 'rolled back (pin policy)' });
  }
  for (const entry of rollout.guardHistory ?? []) {
    named.push({ remote: entry.remote, version: entry.version, as: 'guard history' });
    named.push({ remote: entry.remote, version: entry.stable, as: 'guard history' });
  }
  return named;
}

/** Where prune works: the time the window ends (tests pass their own), and the process's working folder (its config's NETNET_DEPLOY_DIR). */
export interface PruneOptions {
  now?: number;
  deployDir: string;
}

/** What prune would keep and remove now. */
export async function planPrune(db: Queryable, { now = Date.now(), deployDir }: PruneOptions): Promise<PrunePlan> {
  const since = new Date(now - RETENTION_DAYS * DAY_MS);
  const reasons = new Map<string, string[]>();
  const because = (remote: string, version: string, reason: string) => {
    const list = reasons.get(key(remote, version)) ?? [];
    if (!list.includes(reason)) list.push(reason);
    reasons.set(key(remote, version), list);
  };

  // Every environment's current map.
  for (const { environment, map } of await currentMaps(db)) {
    for (const { remote, version, as } of versionsNamedBy(map)) because(remote, version, `${as} in ${environment}`);
  }
  // Every map in effect since the window began: written in it, or the one each environment had then.
  for (const row of await mapsInEffectSince(db, since)) {
    const when = `${row.environment}'s map of ${day(row.at)} (v${row.map_version})`;
    for (const { remote, version, as } of versionsNamedBy(row.map)) {
      because(remote, version, row.in_window ? `${as} in ${when}` : `${as} in ${when}, still in effect ${RETENTION_DAYS} days ago`);
    }
  }

  // Every release there is: in the store, in the origin folder, or both.
  const registered = await listReleases(db);
  const publishedAt = new Map((await publishedTimes(db)).map((row) => [key(row.remote, row.version), row.publishedAt]));
  const all = new Map<string, { remote: string; version: string; registered: boolean; folder: boolean }>();
  for (const remote of site.remotes) {
    for (const { version } of registered.get(remote) ?? []) all.set(key(remote, version), { remote, version, registered: true, folder: false });
    for (const version of publishedVersions(deployDir, remote)) {
      const known = all.get(key(remote, version));
      all.set(key(remote, version), { remote, version, registered: known?.registered ?? false, folder: true });
      // A folder the store does not list: its manifest's time is when it was published.
      if (!publishedAt.has(key(remote, version))) publishedAt.set(key(remote, version), statSync(join(releaseDir(deployDir, remote, version), 'mf-manifest.json')).mtime);
    }
  }
  for (const { remote, version } of all.values()) {
    const at = publishedAt.get(key(remote, version));
    if (at && at >= since) because(remote, version, `published ${day(at)}, less than ${RETENTION_DAYS} days ago`);
  }

  const ordered = [...all.values()].sort((a, b) => a.remote.localeCompare(b.remote) || compareVersions(a.version, b.version));
  return {
    since,
    keep: ordered.filter((release) => reasons.has(key(release.remote, release.version))).map(({ remote, version }) => ({ remote, version, reasons: reasons.get(key(remote, version))! })),
    remove: ordered.filter((release) => !reasons.has(key(release.remote, release.version))),
  };
}

/**
 * Removes what the plan says, planned again under a lock on the maps, so a map written since the
 * plan was printed is taken into account: each release leaves the store (and every instance's
 * list, NOTIFY) first, then its folder is renamed out of the way and deleted.
 */
export async function applyPrune(db: Store, { now = Date.now(), deployDir }: PruneOptions): Promise<PrunePlan> {
  const plan = await transaction(db, async (client) => {
    // No map changes while the plan is made and the store updated (a rollout command waits).
    await lockMaps(client);
    const planned = await planPrune(client, { now, deployDir });
    for (const { remote, version, registered } of planned.remove) {
      if (!registered) continue;
      await unregisterRelease(client, remote, version);
    }
    // Its list of files went with its row; the files no other release holds go now.
    await dropUnheldFiles(client);
    return planned;
  });
  for (const { remote, version, folder } of plan.remove) {
    if (!folder) continue;
    const dir = releaseDir(deployDir, remote, version);
    // Renamed first: the origin stops serving it at once (a staging name is never served).
    const doomed = join(dir, '..', `.pruned-${version}-${process.pid}`);
    if (existsSync(dir)) renameSync(dir, doomed);
    rmSync(doomed, { recursive: true, force: true });
  }
  return plan;
}

/** The plan as the command prints it. */
export function describePlan(plan: PrunePlan, { applied }: { applied: boolean }): string[] {
  const lines = [`retention: releases named by any environment's map, by any map in effect since ${plan.since.toISOString().slice(0, 19).replace('T', ' ')} UTC, or published since then`];
  if (plan.remove.length === 0) lines.push('nothing to remove');
  for (const { remote, version, registered, folder } of plan.remove) {
    const where = [folder && 'its folder', registered && 'the store'].filter(Boolean).join(' and ');
    lines.push(`${applied ? 'removed' : 'would remove'} ${remote} ${version} (from ${where}): named by no map in effect in the last ${RETENTION_DAYS} days`);
  }
  for (const { remote, version, reasons } of plan.keep) lines.push(`keep ${remote} ${version}: ${reasons.join('; ')}`);
  if (!applied && plan.remove.length > 0) lines.push('dry run: nothing was removed; --apply removes them');
  return lines;
}
