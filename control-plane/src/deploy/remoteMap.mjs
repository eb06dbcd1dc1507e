// /remotes.json as `npm start` serves it: the environment's rollout laid over the default map.
// Remotes the rollout names come from their published releases; the others from their own build.
// Each release carries the SHA-384 of its entry files (from its integrity.json), so the shell
// loads it only as published; and each remote lists the versions QA may pin here (`pinnable`).
import { createRequire } from 'node:module';
import { entryIntegrity } from './integrity.mjs';
import { verifyQaToken } from './qaToken.mjs';
import { readRollout } from './rolloutFile.mjs';
import { publishedVersions, releaseDir } from './tree.mjs';

const site = createRequire(import.meta.url)('../../../scripts/site.cjs');

/**
 * Who may pin what. Production (`NETNET_ENV=production`, or `"production": true` in the rollout
 * file): only a request with a valid QA token (signed with NETNET_QA_SECRET; no secret, no pins).
 * Everywhere: a version rolled back for a defect is not pinnable unless the rollout file says
 * `"pinRolledBack": true`.
 */
function pinPolicy(environment, rollout, { env = process.env, qaToken } = {}) {
  const production = environment === 'production' || rollout?.production === true;
  const allowed = !production || verifyQaToken(qaToken, { secret: env.NETNET_QA_SECRET, environment });
  return { production, allowed, rolledBackPinnable: rollout?.pinRolledBack === true };
}

/**
 * @param {string} environment
 * @param {NodeJS.ProcessEnv} [env]
 * @param {{ qaToken?: string }} [request] what the browser sent (its X-Netnet-QA-Token header)
 */
export function remoteMapFor(environment, env = process.env, { qaToken } = {}) {
  const rollout = readRollout(environment, env);
  const policy = pinPolicy(environment, rollout, { env, qaToken });
  const base = site.remoteMap(env).remotes;
  const cdn = site.deployOrigin(env);
  const release = (remote, version) => {
    const integrity = entryIntegrity(releaseDir(remote, version, env));
    return { version, entry: `${cdn}/${remote}/${version}/mf-manifest.json`, ...(integrity && { integrity }) };
  };
  const remotes = {};
  for (const remote of site.remotes) {
    const plan = rollout?.remotes[remote];
    const rolledBack = new Set(policy.rolledBackPinnable ? [] : (plan?.rolledBack ?? []));
    remotes[remote] = {
      stable: plan ? release(remote, plan.stable) : base[remote].stable,
      ...(plan?.canary && { canary: { ...release(remote, plan.canary.version), percent: plan.canary.percent } }),
      // Only releases with recorded hashes: a pin is checked like any release.
      pinnable: policy.allowed
        ? publishedVersions(remote, env)
            .filter((version) => !rolledBack.has(version))
            .map((version) => release(remote, version))
            .filter((pin) => pin.integrity)
        : [],
    };
  }
  return { environment, remotes };
}
