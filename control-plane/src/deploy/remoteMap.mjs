// /remotes.json as the shell's server serves it: the environment's rollout map laid over the
// default map. Remotes the map names come from their published releases; the others from their own
// build. Each release carries the SHA-384 of its entry files (registered with it in the store), so
// the shell loads it only as published; and each remote lists the versions QA may pin here
// (`pinnable`). Built from what the instance holds in memory (control-plane/src/store/liveMap.mjs),
// never from a database round trip per request.
import { createRequire } from 'node:module';
import { verifyQaToken } from './qaToken.mjs';

const site = createRequire(import.meta.url)('../../../scripts/site.cjs');

/**
 * Who may pin what. Production (`NETNET_ENV=production`, or `"production": true` in the rollout
 * map): only a request with a valid QA token (signed with NETNET_QA_SECRET; no secret, no pins).
 * Everywhere: a version rolled back for a defect is not pinnable unless the map says
 * `"pinRolledBack": true`.
 */
function pinPolicy(environment, rollout, { env = process.env, qaToken } = {}) {
  const production = environment === 'production' || rollout?.production === true;
  const allowed = !production || verifyQaToken(qaToken, { secret: env.NETNET_QA_SECRET, environment });
  return { production, allowed, rolledBackPinnable: rollout?.pinRolledBack === true };
}

/**
 * @param {string} environment
 * @param {{ rollout: object | null, releases: Map<string, { version: string, integrity: object | null }[]> }} known
 *   the environment's map and the published releases (liveMap's current())
 * @param {NodeJS.ProcessEnv} [env]
 * @param {{ qaToken?: string }} [request] what the browser sent (its X-Netnet-QA-Token header)
 */
export function remoteMapFor(environment, { rollout, releases }, env = process.env, { qaToken } = {}) {
  const policy = pinPolicy(environment, rollout, { env, qaToken });
  const base = site.remoteMap(env).remotes;
  const cdn = site.deployOrigin(env);
  const release = (remote, version) => {
    const integrity = releases.get(remote)?.find((known) => known.version === version)?.integrity;
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
        ? (releases.get(remote) ?? [])
            .filter((known) => known.integrity && !rolledBack.has(known.version))
            .map((known) => release(remote, known.version))
        : [],
    };
  }
  return { environment, remotes };
}
