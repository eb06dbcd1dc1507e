// The rollout rule: which release of a remote a member gets, and what a map of releases may say.
// One package for the browser (bundled into the shell), the shell's server and the control plane,
// so both sides apply the same rule. Pure code: no Node or DOM API. The release-health report
// format is an entry of its own, `@netnet/rollout/reports`: only the page's report code and the
// collector need it, so the shell's first chunk does not carry it.
export { isVersion } from './version.ts';
export { parseRemoteMap, RemoteMapError, SRI, type CanaryRelease, type DevServer, type Release, type RemoteMap, type RemoteRollout } from './map.ts';
export { bucketOf, hash32, inCanary } from './bucket.ts';
export { chooseRelease, pinnedRelease, DEV_VERSION, type Channel, type Choice } from './chooseRelease.ts';
