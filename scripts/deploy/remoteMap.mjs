// /remotes.json as `npm start` serves it: the environment's rollout laid over the default map.
// Remotes the rollout names come from their published releases; the others from their own build.
// Every remote also gets an entry template, so a QA override can pin any published version
// without the shell knowing a single URL.
import { createRequire } from 'node:module';
import { readRollout } from './rolloutFile.mjs';

const site = createRequire(import.meta.url)('../site.cjs');

export function remoteMapFor(environment, env = process.env) {
  const rollout = readRollout(environment, env);
  const base = site.remoteMap(env).remotes;
  const cdn = site.deployOrigin(env);
  const entry = (remote, version) => `${cdn}/${remote}/${version}/mf-manifest.json`;
  const remotes = {};
  for (const remote of site.remotes) {
    const plan = rollout?.remotes[remote];
    remotes[remote] = {
      stable: plan ? { version: plan.stable, entry: entry(remote, plan.stable) } : base[remote].stable,
      ...(plan?.canary && {
        canary: { version: plan.canary.version, entry: entry(remote, plan.canary.version), percent: plan.canary.percent },
      }),
      entryTemplate: entry(remote, '{version}'),
    };
  }
  return { environment, remotes };
}
