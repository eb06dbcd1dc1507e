// One rollout file per environment, deploy/rollout.<env>.json: per remote, the stable version, an
// optional canary { version, percent } and the history of earlier stables (newest last), so a
// rollback can step back. A remote the file leaves out is served from its own build, as before
// anything was released.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** Writes beside the file and renames over it: a reader never sees half a rollout. */
export function writeRollout(environment, rollout, env = process.env) {
  const path = rolloutPath(environment, env);
  validateRollout(rollout, 'the new rollout');
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(rollout, null, 2)}\n`);
  renameSync(temporary, path);
  return path;
}
