// One rollout file per environment, deploy/rollout.<env>.json: per remote, the stable version, an
// optional canary { version, percent } and the history of earlier stables (newest last), so a
// rollback can step back. A remote the file leaves out is served from its own build, as before
// anything was released.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeFileDurably } from '../durableWrite.mjs';
import { assertRemote, DeployError, deployDir, isVersion } from './tree.mjs';

const ENVIRONMENT = /^[a-z0-9][a-z0-9-]{0,39}$/;

export const isEnvironment = (value) => typeof value === 'string' && ENVIRONMENT.test(value);

export function environmentName(env = process.env, explicit = undefined) {
  const name = explicit ?? (env.NETNET_ENV || 'local');
  if (!isEnvironment(name)) throw new DeployError(`"${name}" is not an environment name (lowercase letters, digits, "-").`);
  return name;
}

export const rolloutPath = (environment, env = process.env) => join(deployDir(env), `rollout.${environment}.json`);

export const emptyRollout = () => ({ remotes: {} });

/** Checks a rollout document; throws a DeployError that names the first problem. */
export function validateRollout(value, source = 'the rollout file') {
  const fail = (problem) => {
    throw new DeployError(`${source} is malformed: ${problem}.`);
  };
  if (!value || typeof value !== 'object' || !value.remotes || typeof value.remotes !== 'object') {
    fail('it needs a "remotes" object');
  }
  for (const [remote, plan] of Object.entries(value.remotes)) {
    try {
      assertRemote(remote);
    } catch (error) {
      fail(error.message);
    }
    if (!plan || !isVersion(plan.stable)) fail(`${remote} needs a "stable" version`);
    if (plan.canary !== undefined) {
      const { version, percent } = plan.canary ?? {};
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
  // Pin policy (control-plane/src/deploy/remoteMap.mjs): both optional, set by hand.
  for (const flag of ['production', 'pinRolledBack']) {
    if (value[flag] !== undefined && typeof value[flag] !== 'boolean') fail(`"${flag}" must be true or false`);
  }
  return value;
}

export const isPercent = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;

/** The environment's rollout, or null when nothing was ever rolled out there. */
export function readRollout(environment, env = process.env) {
  const path = rolloutPath(environment, env);
  if (!existsSync(path)) return null;
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DeployError(`${path} is not valid JSON (${error.message}).`);
  }
  return validateRollout(parsed, path);
}

/**
 * Writes the rollout so that a reader never sees half of it and a crash leaves the old one or the
 * new one (../durableWrite.mjs). Call it through updateRollout, which holds the lock.
 */
function writeRollout(environment, rollout, env = process.env) {
  const path = rolloutPath(environment, env);
  validateRollout(rollout, 'the new rollout');
  mkdirSync(dirname(path), { recursive: true });
  writeFileDurably(path, `${JSON.stringify(rollout, null, 2)}\n`);
  return path;
}

const LOCK_WAIT_MS = 10_000;
const LOCK_POLL_MS = 25;

function processIsGone(pid) {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return error.code === 'ESRCH';
  }
}

/** The lock's content when its holder died without removing it (same machine only), else null. */
function staleLock(lock) {
  let content;
  try {
    content = readFileSync(lock, 'utf8');
  } catch {
    return null; // just released: try again
  }
  let holder;
  try {
    holder = JSON.parse(content);
  } catch {
    return null; // being written by its holder right now
  }
  return holder?.host === hostname() && Number.isInteger(holder.pid) && processIsGone(holder.pid) ? content : null;
}

/**
 * Read-change-write of an environment's rollout under an exclusive lock (rollout.<env>.json.lock,
 * created with O_EXCL), so two commands at once never lose a change: the second waits for the
 * first and applies its change to the first one's result. A lock left by a command that died is
 * taken over; one held longer than LOCK_WAIT_MS by a live command fails this one loudly.
 * `change` gets the current rollout (null when there is none) and returns the new one.
 */
export async function updateRollout(environment, change, env = process.env) {
  const path = rolloutPath(environment, env);
  const lock = `${path}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const file = openSync(lock, 'wx');
      writeSync(file, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
      closeSync(file);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const stale = staleLock(lock);
    // Removed only if it is still the very lock judged stale, not one a faster waiter just took.
    if (stale !== null && staleLock(lock) === stale) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new DeployError(`another rollout command is changing ${environment} (${lock} is held); nothing was changed. Try again.`);
    }
    await sleep(LOCK_POLL_MS);
  }
  try {
    return writeRollout(environment, change(readRollout(environment, env)), env);
  } finally {
    unlinkSync(lock);
  }
}
