// The release-health part of `npm run rollout -- status`: per remote, how each of its releases
// fared in the figures' window (read from the store every instance of the site's server writes),
// what the guard would decide about its canary now, and what the guard did before and why
// (the rollout map's guardHistory). See README.md, "Reading release health".
import { DeployError, messageOf } from '../errors.ts';
import type { Figures, Series } from '../health/figures.ts';
import { decide, type Decision, type Evidence } from './guard.ts';
import { NETWORK_RULES } from '../health/network.ts';
import { quantile, countOf } from '../health/histogram.ts';
import type { Queryable } from '../store/database.ts';
import { readFigures, readSessionNetworks } from '../health/counts.ts';
import type { GuardHistoryEntry, RemotePlan, Rollout } from '../store/rollouts.ts';
import { compareVersions } from '../names.ts';

const NONE = '–';
const HISTORY_SHOWN = 5;
const WIDTH = 100;

/** The environment's figures over the window ending `now`, from every instance's reports. */
export async function figuresOf(db: Queryable, environment: string, { now = Date.now() }: { now?: number } = {}): Promise<Figures> {
  try {
    return await readFigures(db, environment, { now });
  } catch (error) {
    throw new DeployError(`the release-health figures of ${environment} cannot be read from the store (${messageOf(error)}).`);
  }
}

const rate = (failures: number, sessions: number) => (sessions ? `${((100 * failures) / sessions).toFixed(2)}%` : NONE);

/** One row of the table for a series of the figures (or none: the release had no report). */
function rowOf(release: string, channel: string, series: Series | undefined): string[] {
  if (!series || series.totals.sessions + countOf(series.totals.lcp) === 0) {
    return [release, channel, NONE, NONE, NONE, NONE, NONE, NONE];
  }
  const { sessions, failures, outcomes, lcp } = series.totals;
  const p75 = quantile(lcp, 0.75);
  const samples = countOf(lcp);
  return [
    release,
    channel,
    String(sessions),
    String(failures),
    rate(failures, sessions),
    String(outcomes['fell-back'] ?? 0),
    p75 === null ? NONE : `${p75} ms`,
    samples ? String(samples) : NONE,
  ];
}

const HEADER = ['release', 'channel', 'sessions', 'failures', 'rate', 'fell back', 'LCP p75', 'LCP samples'];
const NUMERIC = [false, false, true, true, true, true, true, true];

function table(rows: string[][], indent: string): string[] {
  const all = [HEADER, ...rows];
  const widths = HEADER.map((_, column) => Math.max(...all.map((row) => row[column]?.length ?? 0)));
  return all.map(
    (row) =>
      indent +
      row
        .map((cell, column) => (NUMERIC[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
  );
}

/** The rows of a remote: its stable and canary first (shown even without reports), then every other release the window holds. */
function rowsOf(remote: string, plan: RemotePlan | undefined, figures: Figures): string[][] {
  const rows: string[][] = [];
  const shown = new Set<string>();
  const rolledBack = new Set(plan?.rolledBack ?? []);
  const add = (release: string, channel: string) => {
    const key = `${release} ${channel}`;
    if (shown.has(key)) return;
    shown.add(key);
    // Its figures stay in the window for an hour after a rollback: say why it still shows.
    const label = channel !== 'stable' && rolledBack.has(release) ? `${channel}, rolled back` : channel;
    rows.push(rowOf(release, label, figures.series(remote, release, channel)));
  };
  if (plan) add(plan.stable, 'stable');
  if (plan?.canary) add(plan.canary.version, 'canary');
  const others = figures
    .list()
    .filter((series) => series.remote === remote)
    .sort((a, b) => compareVersions(b.release, a.release) || a.channel.localeCompare(b.channel));
  for (const series of others) add(series.release, series.channel);
  return rows;
}

/** `text` broken at spaces into lines of at most `width` characters: the first after `first`, the others after `rest`. */
function wrap(text: string, first: string, rest = first, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  const indent = () => (lines.length ? rest : first);
  for (const word of text.split(' ')) {
    if (line && indent().length + line.length + 1 + word.length > width) {
      lines.push(indent() + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent() + line);
  return lines;
}

const VERDICT: Record<Decision['action'], string> = { wait: 'waiting', rollback: 'would roll back', widen: 'would widen' };

const when = (iso: string) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? String(iso) : `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
};

function historyLine(entry: GuardHistoryEntry) {
  const share = entry.action === 'widen' && entry.to !== undefined ? `${entry.from}% → ${entry.to}%` : `at ${entry.from}%`;
  return `${when(entry.at)}  ${entry.action} ${entry.version} ${share} (stable ${entry.stable})`;
}

/** The lines `status` prints under each remote, and the header line above them all. */
export async function healthReport({
  db,
  environment,
  rollout,
  remotes,
  minFailingNetworks = NETWORK_RULES.minFailingNetworks,
  now = Date.now(),
}: {
  db: Queryable;
  environment: string;
  rollout: Rollout | null;
  remotes: string[];
  /** The guard's rule (NETNET_GUARD_MIN_NETWORKS), which the decisions shown follow. */
  minFailingNetworks?: number;
  now?: number;
}): Promise<{ header: string[]; byRemote: Map<string, string[]>; evidence: Map<string, GuardEvidence> }> {
  const figures = await figuresOf(db, environment, { now });
  const sessionNetworks = await readSessionNetworks(db, environment, { now }).catch(() => undefined);
  const header = figures.list().length
    ? [`release health over the last ${figures.windowMinutes} min (read ${when(new Date(now).toISOString())})`]
    : [`release health: nothing reported in the last ${figures.windowMinutes} min`];
  const decisions = new Map(
    decide(figures, rollout, { now, minFailingNetworks, ...(sessionNetworks && { sessionNetworks }) }).map((decision) => [decision.remote, decision]),
  );
  const byRemote = new Map<string, string[]>();
  const evidence = new Map<string, GuardEvidence>();
  for (const remote of remotes) {
    const plan = rollout?.remotes[remote];
    const lines: string[] = [];
    const rows = rowsOf(remote, plan, figures);
    if (rows.length) lines.push(...table(rows, '  '));
    const decision = decisions.get(remote);
    if (decision) {
      lines.push(...wrap(`guard verdict: ${VERDICT[decision.action] ?? decision.action}: ${decision.reason}`, '  ', '    '));
      lines.push(...wrap(`guard evidence: ${evidenceLine(decision.evidence)}`, '  ', '    '));
      evidence.set(remote, guardEvidence(decision));
    }
    const history = (rollout?.guardHistory ?? []).filter((entry) => entry?.remote === remote).slice(-HISTORY_SHOWN).reverse();
    if (history.length) {
      lines.push('  guard history (latest first):');
      for (const entry of history) lines.push(`    ${historyLine(entry)}`, ...wrap(String(entry.reason ?? ''), '      '));
    }
    byRemote.set(remote, lines);
  }
  return { header, byRemote, evidence };
}

/** What a canary's verdict rests on, as the API's status gives it. */
export interface GuardEvidence extends Evidence {
  canary: string;
  action: Decision['action'];
  why: Decision['why'];
  failureLlr: number;
  referenceLlr: number;
  rollbackAt: { failure: number; reference: number };
}

function guardEvidence(decision: Decision): GuardEvidence {
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    canary: decision.canary.version,
    action: decision.action,
    why: decision.why,
    ...decision.evidence,
    failureLlr: round(decision.failure.llr),
    referenceLlr: round(decision.reference.llr),
    rollbackAt: { failure: round(decision.failure.upper), reference: round(decision.reference.upper) },
  };
}

function evidenceLine({ sessions, failures, failingNetworks, heaviestNetworkFailures, heaviestNetworkCounted, minFailingNetworks: needed, sessionNetworks }: Evidence): string {
  const from = sessionNetworks === null ? '' : ` from ${sessionNetworks} network${sessionNetworks === 1 ? '' : 's'}`;
  return (
    `${sessions} canary sessions${from}, ${failures} failed from ${failingNetworks} network${failingNetworks === 1 ? '' : 's'} ` +
    `(a rollback on failures needs ${needed}; of the ${heaviestNetworkFailures} of the network that sent the most, the tests count ${heaviestNetworkCounted}, as many as the next)`
  );
}
