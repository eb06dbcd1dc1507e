// The site table (scripts/site.cjs, CommonJS, shared with the Node scripts) as the control plane
// reads it: the remotes, where releases live and are served from, each remote's own build.
import { createRequire } from 'node:module';

export interface BuiltRelease {
  version: string;
  entry: string;
}

export interface SiteTable {
  remotes: string[];
  deployDir(env?: NodeJS.ProcessEnv): string;
  deployOrigin(env?: NodeJS.ProcessEnv): string;
  federationName(app: string): string;
  /** /remotes.json when no release is rolled out: each remote from its own build. */
  remoteMap(env?: NodeJS.ProcessEnv): { remotes: Record<string, { stable: BuiltRelease }> };
  /** What /config.json answers: what a page's browser code, and its render process, are told. */
  runtimeConfig(env?: NodeJS.ProcessEnv): unknown;
}

export const site = createRequire(import.meta.url)('../../scripts/site.cjs') as SiteTable;
