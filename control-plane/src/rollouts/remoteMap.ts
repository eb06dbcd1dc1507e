// /remotes.json as the shell's server serves it: the environment's rollout map laid over the
// default map. Remotes the map names come from their published releases; the others from their own
// build. Each release carries the SHA-384 of its entry files (registered with it in the store), so
// the shell loads it only as published; and each remote lists the versions QA may pin here
// (`pinnable`). Built from what the instance holds in memory (control-plane/src/store/liveMap.ts),
// never from a database round trip per request.
// The map's shape is the rollout rule's (@netnet/rollout), the one the shell reads it by.
import type { Release, RemoteMap, RemoteRollout } from '@netnet/rollout';
import site, { type MapSettings } from '@netnet/site';
import type { Releases } from '../store/releases.ts';
import type { Rollout } from '../store/rollouts.ts';
import { verifyQaToken } from './qaToken.ts';

export type { RemoteMap };

/**
 * What a map is made of besides the store's: the site table's map variables (the releases' origin,
 * each remote's own build) and, to check QA tokens, NETNET_QA_SECRET (QA_SECRET_VARIABLES).
 */
export type RemoteMapSettings = MapSettings & { qaSecret?: string | undefined };

/** No QA token stands (a caller that read none from the store). */
const NO_TOKENS: ReadonlySet<string> = new Set();

/**
 * Who may pin what. Production (`NETNET_ENV=production`, or `"production": true` in the rollout
 * map): only a request with a valid QA token (signed with NETNET_QA_SECRET, among `qaTokens`, the
 * environment's standing ones; no secret, no pins).
 * Everywhere: a version rolled back for a defect is not pinnable unless the map says
 * `"pinRolledBack": true`.
 */
function pinPolicy(
  environment: string,
  rollout: Rollout | null,
  { qaSecret, qaToken, qaTokens = NO_TOKENS }: { qaSecret: string | undefined; qaToken?: string | undefined; qaTokens?: ReadonlySet<string> },
) {
  const production = environment === 'production' || rollout?.production === true;
  const allowed = !production || verifyQaToken(qaToken, { secret: qaSecret, environment, standing: qaTokens });
  return { production, allowed, rolledBackPinnable: rollout?.pinRolledBack === true };
}

/**
 * `known`: the environment's map and the published releases (liveMap's current()); `request`: what
 * the browser sent (its X-Netnet-QA-Token header) and the dev pins the server accepted for it
 * (devPin.ts's devPinsFor: remote → loopback origin).
 */
export function remoteMapFor(
  environment: string,
  { rollout, releases, qaTokens }: { rollout: Rollout | null; releases: Releases; qaTokens?: ReadonlySet<string> },
  settings: RemoteMapSettings,
  { qaToken, devPins = {} }: { qaToken?: string | undefined; devPins?: Record<string, string> } = {},
): RemoteMap & { environment: string } {
  const policy = pinPolicy(environment, rollout, { qaSecret: settings.qaSecret, qaToken, qaTokens });
  const base = site.remoteMap(settings).remotes;
  const cdn = settings.deployUrl;
  const release = (remote: string, version: string): Release => {
    const integrity = releases.get(remote)?.find((known) => known.version === version)?.integrity;
    return { version, entry: `${cdn}/${remote}/${version}/mf-manifest.json`, ...(integrity && { integrity }) };
  };
  const ownBuild = (remote: string): Release => {
    const built = base[remote];
    if (!built) throw new Error(`the site table gives no build of ${remote}`);
    return built.stable;
  };
  const remotes: Record<string, RemoteRollout> = {};
  for (const remote of site.remotes) {
    const plan = rollout?.remotes[remote];
    const rolledBack = new Set(policy.rolledBackPinnable ? [] : (plan?.rolledBack ?? []));
    remotes[remote] = {
      stable: plan ? release(remote, plan.stable) : ownBuild(remote),
      ...(plan?.canary && { canary: { ...release(remote, plan.canary.version), percent: plan.canary.percent } }),
      // Only releases with recorded hashes: a pin is checked like any release.
      pinnable: policy.allowed
        ? (releases.get(remote) ?? [])
            .filter((known) => known.integrity && !rolledBack.has(known.version))
            .map((known) => release(remote, known.version))
        : [],
      ...(devPins[remote] && { dev: { origin: devPins[remote], entry: `${devPins[remote]}/mf-manifest.json` } }),
    };
  }
  return { environment, remotes };
}
