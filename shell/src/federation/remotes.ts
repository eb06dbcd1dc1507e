// The four remotes and the pages each exposes: the shell's only knowledge of them.
export const remoteNames = ['remote-auth', 'remote-browse', 'remote-title', 'remote-search'] as const;
export type RemoteName = (typeof remoteNames)[number];

/** Module Federation container names are JS identifiers: remote-title → remote_title. */
export const federationName = (remote: RemoteName): string => remote.replace(/-/g, '_');
