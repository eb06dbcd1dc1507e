// The store: the control plane's SQL statements, one module per table group (docs/store.md).
// This file is its package entry for tools outside the control plane (`@netnet/control-plane/store`):
// the site's start, the e2e support and the benchmarks open it, start its embedded server, read and
// write maps.
export { openDatabase, readStoreSettings } from './database.ts';
export { embeddedDir, startEmbedded } from './embedded.ts';
export { listReleases, RELEASES_CHANNEL } from './releases.ts';
export { ROLE_NAMES, ROLE_URLS } from './roles.ts';
export { environmentName, readRollout, updateRollout } from './rollouts.ts';
