// Releases from build to origin folder: an upload extracted and verified, integrity recorded, the
// compatibility gate, `release --from`, retention (prune). This file is the folder's package entry
// (`@netnet/control-plane/releases`): which files the releases origin may serve, and the releases
// found in the origin folder registered in the store, for the site's start and its front door.
export { isReleaseFile, registerPublished } from './originFolder.ts';
