// The site table (@netnet/site, CommonJS, shared with the builds and the tools) as the control plane
// reads it: the remotes, where releases live and are served from, each remote's own build.
import table from '@netnet/site';

export type { BuiltRelease } from '@netnet/site';
export type SiteTable = typeof table;

export const site: SiteTable = table;
