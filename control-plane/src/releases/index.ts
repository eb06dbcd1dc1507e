// The published releases as the site's start and its front door use them
// (`@netnet/control-plane/releases`): which files the releases origin may serve, and the releases
// found in the origin folder registered in the store.
export { isReleaseFile, registerPublished } from './originFolder.ts';
