// `npm run rollout -- guard`: the guard (control-plane/src/guard/guard.ts) for one environment, in the
// process of a deployment job rather than the site's. Each pass reads the figures every instance
// of the site's server wrote to the store; it acts only while it holds the environment's lease.
import { DeployError, messageOf } from '../errors.ts';
import { GUARD_DEFAULTS, guardName, runGuard, startGuard, type GuardState } from './guard.ts';
import type { Store } from '../store/database.ts';
import { releaseLease } from '../store/lease.ts';

/** The guard's flags as parseArgs gives them. */
export interface GuardFlags {
  stages?: string | undefined;
  'min-stage-sessions'?: string | undefined;
  interval?: string | undefined;
  once?: boolean | undefined;
}

export interface GuardCommandOptions {
  stages: number[];
  minStageSessions: number;
  intervalMs: number;
  once: boolean;
}

// Typed by a person, like --percent (control-plane/src/rollouts/commands.ts): plain decimal digits
// only, so a typo is refused rather than read as some other number.
const STAGE = /^(?:100|[1-9][0-9]?)%?$/;
const COUNT = /^[1-9][0-9]{0,6}$/;
const SECONDS = /^[0-9]{1,4}(?:\.[0-9]{1,3})?$/;
const MIN_INTERVAL_S = 0.1;
const MAX_INTERVAL_S = 3600;

/** `--stages 10,25,50,100`: percents from 1 to 100, each above the one before. */
function parseStages(text: unknown): number[] {
  const refuse = () => new DeployError(`--stages takes percents from 1 to 100 in ascending order, like 10,25,50,100 (got "${text ?? ''}").`);
  const parts = typeof text === 'string' ? text.split(',') : [];
  if (!parts.length || !parts.every((part) => STAGE.test(part))) throw refuse();
  const stages = parts.map((part) => Number.parseInt(part, 10));
  if (stages.some((stage, index) => index > 0 && stage <= (stages[index - 1] ?? 0))) throw refuse();
  return stages;
}

function parseMinStageSessions(text: unknown): number {
  if (typeof text !== 'string' || !COUNT.test(text)) {
    throw new DeployError(`--min-stage-sessions takes a whole number of sessions from 1 up, like 200 (got "${text ?? ''}").`);
  }
  return Number.parseInt(text, 10);
}

/** `--interval` in seconds, as ms. */
function parseInterval(text: unknown): number {
  const seconds = typeof text === 'string' && SECONDS.test(text) ? Number(text) : NaN;
  if (!(seconds >= MIN_INTERVAL_S && seconds <= MAX_INTERVAL_S)) {
    throw new DeployError(`--interval takes the seconds between passes, from ${MIN_INTERVAL_S} to ${MAX_INTERVAL_S}, like 5 (got "${text ?? ''}").`);
  }
  return Math.round(seconds * 1000);
}

/** The guard's options from the command line's values, checked before anything runs. */
export function guardOptions(values: GuardFlags): GuardCommandOptions {
  if (values.once && values.interval !== undefined) throw new DeployError('--once runs a single pass; --interval is for a guard that keeps running.');
  return {
    stages: values.stages === undefined ? [] : parseStages(values.stages),
    minStageSessions: values['min-stage-sessions'] === undefined ? GUARD_DEFAULTS.minStageSessions : parseMinStageSessions(values['min-stage-sessions']),
    intervalMs: values.interval === undefined ? GUARD_DEFAULTS.intervalMs : parseInterval(values.interval),
    once: Boolean(values.once),
  };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * Runs the guard: one pass with `once`, else passes every `intervalMs` until SIGINT or SIGTERM.
 * Every change is one line through `log`; a pass that fails in the loop is reported and the next
 * one runs (the figures or the rollout file may be mid-repair), a failing `once` pass is the
 * command's failure.
 */
export async function guardCommand({
  db,
  environment,
  options,
  minFailingNetworks,
  log = console.log,
  warn = console.error,
}: {
  db: Store;
  environment: string;
  options: GuardCommandOptions;
  /** From the guard's config (NETNET_GUARD_MIN_NETWORKS). */
  minFailingNetworks: number;
  log?: (line: string) => void;
  warn?: (line: string) => void;
}): Promise<void> {
  const { stages, minStageSessions, intervalMs, once } = options;
  const holder = guardName();
  const guard = { db, environment, holder, stages, minStageSessions, intervalMs, minFailingNetworks, log };
  const state: GuardState = {};
  if (once) {
    // A single pass gives its lease up as it ends, as a guard that stops does (startGuard's
    // stop()): else the next pass of a deployment job, or the site's own guards, would find it
    // held by a process that is gone until it lapsed (three intervals).
    const { leader, decisions, applied } = await runGuard({ ...guard, state }).finally(() => releaseLease(db, environment, holder).catch(() => {}));
    if (!leader) log(`${environment}: another guard holds the lease; this one changed nothing.`);
    else if (!applied.length) log(`${environment}: no change (${plural(decisions.length, 'canary', 'canaries')} checked).`);
    return;
  }

  const widening = stages.length ? `widening through ${stages.map((stage) => `${stage}%`).join(', ')} after ${minStageSessions} sessions a stage` : 'rollbacks only (no --stages)';
  log(`guard for ${environment}: every ${intervalMs / 1000} s, ${widening}; acts while it holds the lease. Ctrl-C or SIGTERM stops it.`);
  const onError = (error: unknown) => warn(error instanceof DeployError ? `guard: error: ${error.message}` : `guard paused: ${messageOf(error)}`);
  let stop: () => unknown = () => {};
  let stopped = false;
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        stopped = true;
        stop();
        resolve(signal);
      });
    }
  });
  // The first pass at once, not an interval after the job started.
  try {
    await runGuard({ ...guard, state });
  } catch (error) {
    onError(error);
  }
  if (!stopped) stop = startGuard({ ...guard, state, intervalMs, onError, onResume: () => log('guard resumed: the store answers again.') });
  const signal = await signalled;
  await stop();
  log(`guard for ${environment} stopped (${signal}).`);
}
