import type { RemoteName } from '@netnet/shared';

// The remotes come from the page table in shared; this adds the one name rule of the container.
export { remoteNames, type RemoteName } from '@netnet/shared';

/** Module Federation container names are JS identifiers: remote-title → remote_title. */
export const federationName = (remote: RemoteName): string => remote.replace(/-/g, '_');
