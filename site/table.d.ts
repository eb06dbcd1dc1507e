// The site table's types (./table.cjs is plain CommonJS, read as it is by webpack, Jest and ESLint).

export interface BuiltRelease {
  version: string;
  entry: string;
}

export type AppKind = 'library' | 'service' | 'host' | 'remote' | 'console';

declare const site: {
  apps: Record<string, { kind: AppKind; port?: number }>;
  ports: Record<string, number>;
  remotes: string[];
  webApps: string[];
  builtApps: string[];
  testedApps: string[];
  siteUrl(env?: NodeJS.ProcessEnv): string;
  origin(app: string, env?: NodeJS.ProcessEnv): string;
  federationName(app: string): string;
  /** What /config.json answers: what a page's browser code, and its render process, are told. */
  runtimeConfig(env?: NodeJS.ProcessEnv): { catalogueUrl: string; firebase: Record<string, string | undefined>; authEmulatorUrl: string | null };
  /** /remotes.json when no release is rolled out: each remote from its own build. */
  remoteMap(env?: NodeJS.ProcessEnv): { remotes: Record<string, { stable: BuiltRelease }> };
  deployOrigin(env?: NodeJS.ProcessEnv): string;
  deployDir(env?: NodeJS.ProcessEnv): string;
};

export default site;
