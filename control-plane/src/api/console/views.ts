// What the release console shows, as JSON for its pages (console/src): an environment's remotes at
// a glance, one remote over the last hour, the audit trail, and what a change would do before it
// is made. Read from the same store, figures and guard as `npm run rollout -- status`
// (guard/status.ts), so the console and the CLI never disagree.
import { checkCompatibility, type GateSettings } from '../../releases/compatibilityGate.ts';
import { remoteMapFor, type RemoteMapSettings } from '../../rollouts/remoteMap.ts';
import { promote, rollback, setCanary } from '../../rollouts/commands.ts';
import { DeployError, messageOf } from '../../errors.ts';
import { minuteOf, type Figures, type Series } from '../../health/figures.ts';
import { decide, type Decision } from '../../guard/guard.ts';
import { countOf, emptyHistogram, quantile } from '../../health/histogram.ts';
import site from '@netnet/site';
import { auditActors, auditRows, publishedReleases, type AuditRow } from '../../store/consoleQueries.ts';
import type { Queryable } from '../../store/database.ts';
import { readFigures } from '../../health/counts.ts';
import { listReleases } from '../../store/releases.ts';
import { emptyRollout, readRollout, type RemotePlan, type Rollout } from '../../store/rollouts.ts';
import { allows, ANY, type Action, type Caller } from '../tokens.ts';
import { workingCopy } from '../../releases/originFolder.ts';
import { releaseFiles } from './releaseFiles.ts';

/** The changes the console offers, per remote, and the one per environment. */
const REMOTE_ACTIONS = ['canary', 'promote', 'rollback'] as const;

/** Why `caller` may not do `action` on `remote` (null: the whole environment) in `environment`, or null when it may. */
export function refusal(caller: Caller, action: Action, remote: string | null, environment: string): string | null {
  if (allows(caller, action, { remote, environment })) return null;
  const who = caller.name;
  if (!caller.actions.includes(ANY) && !caller.actions.includes(action)) return `${who} may not ${action} (allowed: ${caller.actions.join(', ')}).`;
  if (!caller.environments.includes(ANY) && !caller.environments.includes(environment)) return `${who} covers ${caller.environments.join(', ')}, not ${environment}.`;
  if (remote === null) return `the pin policy concerns every remote: it needs a token for all of them; ${who} covers ${caller.remotes.join(', ')}.`;
  return `${who} covers ${caller.remotes.join(', ')} only.`;
}

const rateOf = (failures: number, sessions: number) => (sessions ? failures / sessions : null);

function totalsOf(series: Series | undefined) {
  if (!series) return { sessions: 0, failures: 0, fellBack: 0, rate: null, lcpP75: null };
  const { sessions, failures, outcomes, lcp } = series.totals;
  return { sessions, failures, fellBack: outcomes['fell-back'] ?? 0, rate: rateOf(failures, sessions), lcpP75: quantile(lcp, 0.75) };
}

/**
 * What the guard's evidence says so far: a regression (it rolls back), healthy (its failure test
 * reached its lower boundary, or it widens), or inconclusive (too few sessions, or a test still
 * between its boundaries). The console warns before a promote on anything but healthy.
 */
function conclusionOf(decision: Decision | undefined): 'healthy' | 'inconclusive' | 'regression' {
  if (decision?.action === 'rollback') return 'regression';
  if (decision?.action === 'widen' || decision?.failure.verdict === 'healthy') return 'healthy';
  return 'inconclusive';
}

/** The guard's verdict on a canary and the figures behind it. */
function verdictOf(decision: Decision | undefined, figures: Figures, plan: RemotePlan | undefined) {
  if (!plan?.canary) return null;
  const canary = totalsOf(figures.series(decision?.remote ?? '', plan.canary.version, 'canary'));
  return {
    action: decision?.action ?? 'wait',
    why: decision?.why ?? 'collecting',
    reason: decision?.reason ?? 'no figures yet',
    conclusion: conclusionOf(decision),
    evidence: { canary, stable: totalsOf(decision ? figures.series(decision.remote, plan.stable, 'stable') : undefined) },
  };
}

/** Per minute over the window: sessions, failures and LCP p75 of the given series summed. */
function minutesOf(series: Series[], from: number, to: number) {
  const out: { minute: number; sessions: number; failures: number; rate: number | null; lcpP75: number | null }[] = [];
  for (let minute = from; minute <= to; minute += 1) {
    let sessions = 0;
    let failures = 0;
    const lcp = emptyHistogram();
    for (const one of series) {
      const counts = one.minutes.get(minute);
      if (!counts) continue;
      sessions += counts.sessions;
      failures += counts.failures;
      for (const [bucket, count] of counts.lcp) lcp[bucket] = (lcp[bucket] ?? 0) + count;
    }
    out.push({ minute, sessions, failures, rate: rateOf(failures, sessions), lcpP75: countOf(lcp) ? quantile(lcp, 0.75) : null });
  }
  return out;
}

/** What the views read of the API's config: the map's settings, the guard's rule, the gate's and the origin folder. */
export type ViewSettings = RemoteMapSettings & GateSettings & { minFailingNetworks: number };

/** Every remote of an environment: what it serves, the guard's verdict, a failure rate per release, what the caller may do. */
export async function overview(db: Queryable, environment: string, caller: Caller, settings: ViewSettings, now = Date.now()) {
  const [{ version, rollout }, releases, figures] = await Promise.all([readRollout(db, environment), listReleases(db), readFigures(db, environment, { now })]);
  const served = remoteMapFor(environment, { rollout, releases }, settings);
  const decisions = new Map(decide(figures, rollout, { now, minFailingNetworks: settings.minFailingNetworks }).map((decision) => [decision.remote, decision]));
  const to = minuteOf(now);
  const from = to - figures.windowMinutes + 1;
  return {
    environment,
    mapVersion: version,
    readAt: new Date(now).toISOString(),
    pinPolicy: { production: environment === 'production' || rollout?.production === true, pinRolledBack: rollout?.pinRolledBack === true },
    canChangePins: refusal(caller, 'pin', null, environment),
    remotes: site.remotes.map((remote) => {
      const plan = rollout?.remotes[remote];
      const releasesShown = [plan?.stable && { release: plan.stable, channel: 'stable' }, plan?.canary && { release: plan.canary.version, channel: 'canary' }].filter(
        (item): item is { release: string; channel: string } => Boolean(item),
      );
      return {
        remote,
        plan: plan ?? null,
        served: served.remotes[remote] ? { pinnable: served.remotes[remote].pinnable.map((release) => release.version) } : { pinnable: [] },
        published: (releases.get(remote) ?? []).map((release) => release.version),
        verdict: verdictOf(decisions.get(remote), figures, plan),
        failureRates: releasesShown.map(({ release, channel }) => {
          const series = figures.series(remote, release, channel);
          return { release, channel, totals: totalsOf(series), minutes: minutesOf(series ? [series] : [], from, to).map((m) => ({ minute: m.minute, sessions: m.sessions, failures: m.failures })) };
        }),
        can: Object.fromEntries(REMOTE_ACTIONS.map((action) => [action, refusal(caller, action, remote, environment)])),
      };
    }),
  };
}

const auditJson = (row: AuditRow, previous: AuditRow | undefined) => ({
  id: row.id,
  mapVersion: row.mapVersion,
  at: row.at.toISOString(),
  actor: row.actor,
  action: row.action,
  remote: row.remote,
  reason: row.reason,
  plan: row.remote ? (row.map?.remotes?.[row.remote] ?? null) : null,
  before: row.remote && previous ? (previous.map?.remotes?.[row.remote] ?? null) : null,
});

/** The audit trail of an environment, newest first, narrowed by remote and actor. */
export async function audit(db: Queryable, environment: string, { remote, actor }: { remote?: string | undefined; actor?: string | undefined }) {
  const limit = 200;
  // One more row than shown, so the oldest shown can say what its remote was before.
  const [rows, actors] = await Promise.all([auditRows(db, environment, { remote, actor, limit: limit + 1 }), auditActors(db, environment)]);
  // The map before a change is the one the next older change of the map made (a QA token's entry has
  // none): known unless the trail is narrowed to one actor, whose changes skip others'.
  const previousMap = (index: number) => rows.slice(index + 1).find((older) => older.map);
  const entries = rows.slice(0, limit).map((row, index) => auditJson(row, actor === undefined ? previousMap(index) : undefined));
  return { environment, remote: remote ?? null, actor: actor ?? null, actors, entries };
}

/** One remote over the last hour: its releases, stable vs canary per minute, the guard's decisions and every change on the time axis, its audit trail. */
export async function remoteView(db: Queryable, environment: string, remote: string, caller: Caller, settings: ViewSettings, now = Date.now()) {
  const [{ version, rollout }, figures, published, trail] = await Promise.all([
    readRollout(db, environment),
    readFigures(db, environment, { now }),
    publishedReleases(db, remote),
    auditRows(db, environment, { remote, limit: 51 }),
  ]);
  const plan = rollout?.remotes[remote] ?? null;
  // Each release's files are checked in this replica's working folder, a copy of the store's.
  for (const release of published) await workingCopy(db, settings.deployDir, remote, release.version);
  const to = minuteOf(now);
  const from = to - figures.windowMinutes + 1;
  const ofChannel = (channel: string) => figures.list().filter((series) => series.remote === remote && series.channel === channel);
  const hourAgo = new Date(from * 60_000);
  const decision = decide(figures, rollout, { now, minFailingNetworks: settings.minFailingNetworks }).find((one) => one.remote === remote);
  return {
    environment,
    remote,
    mapVersion: version,
    readAt: new Date(now).toISOString(),
    plan,
    verdict: verdictOf(decision, figures, plan ?? undefined),
    can: Object.fromEntries(REMOTE_ACTIONS.map((action) => [action, refusal(caller, action, remote, environment)])),
    releases: published.map((release) => ({
      version: release.version,
      publishedAt: release.publishedAt.toISOString(),
      publishedBy: release.publishedBy ?? 'a checkout (npm run release)',
      ...releaseFiles(remote, release.version, settings.deployDir),
    })),
    chart: {
      from,
      to,
      stable: minutesOf(ofChannel('stable'), from, to),
      canary: minutesOf(ofChannel('canary'), from, to),
      marks: trail
        .filter((row) => row.at >= hourAgo)
        .map((row) => ({ at: row.at.toISOString(), guard: row.actor.startsWith('guard'), actor: row.actor, action: row.action, reason: row.reason })),
    },
    audit: trail.slice(0, 50).map((row, index) => auditJson(row, trail[index + 1])),
  };
}

/**
 * What a change would do: the plan it makes and the compatibility gate's answer; `refused` when the
 * command itself would refuse it; the guard's verdict on the canary now (a promote on inconclusive
 * evidence is warned about).
 */
export async function preview(
  db: Queryable,
  environment: string,
  remote: string,
  { command, version, percent }: { command: string; version?: string | undefined; percent?: number | undefined },
  settings: ViewSettings,
  now = Date.now(),
) {
  const [{ rollout }, releases, figures] = await Promise.all([readRollout(db, environment), listReleases(db), readFigures(db, environment, { now })]);
  const current: Rollout = rollout ?? emptyRollout();
  const before = current.remotes[remote] ?? null;
  const decision = before?.canary ? decide(figures, rollout, { now, minFailingNetworks: settings.minFailingNetworks }).find((one) => one.remote === remote) : undefined;
  const verdict = verdictOf(decision, figures, before ?? undefined);
  try {
    let next: Rollout;
    let gated: string | undefined;
    if (command === 'canary') {
      if (percent === undefined || version === undefined) throw new DeployError('a canary needs a version and a share.');
      next = setCanary(current, remote, version, percent, releases);
      gated = version;
    } else if (command === 'promote') {
      next = promote(current, remote);
      gated = before?.canary?.version;
    } else if (command === 'rollback') next = rollback(current, remote, releases);
    else throw new DeployError(`"${command}" is not a change the console makes.`);
    let gate: { passes: boolean; message: string } = { passes: true, message: 'nothing new reaches members: the gate has nothing to check' };
    if (gated !== undefined) {
      // The gate reads the release's manifest in this replica's working folder, a copy of the store's.
      await workingCopy(db, settings.deployDir, remote, gated);
      try {
        checkCompatibility({ remote, version: gated, skip: false, gate: settings, warn: () => {} });
        gate = { passes: true, message: `the shell provides everything ${remote} ${gated} needs` };
      } catch (error) {
        gate = { passes: false, message: messageOf(error) };
      }
    }
    return { before, after: next.remotes[remote] ?? null, gate, refused: null, verdict };
  } catch (error) {
    if (!(error instanceof DeployError)) throw error;
    return { before, after: null, gate: null, refused: messageOf(error), verdict };
  }
}

