// The rollout environment the cluster of `npm run e2e:cluster` serves (NETNET_ENV, set by
// e2e/cluster.config.ts): one of its own, so the canaries its specs set, the guard's rollbacks and
// the release health their visitors report never touch "local", which `npm start` and a release
// owner's commands use by default, and a spec's cleanup can never undo someone else's rollout.
export const clusterEnvironment = 'e2e-cluster';
