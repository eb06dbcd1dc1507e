// The site table's types (./table.cjs is plain CommonJS, read as it is by webpack, Jest and ESLint).
import type { ZodType } from 'zod';

export interface BuiltRelease {
  version: string;
  entry: string;
}

export type AppKind = 'library' | 'service' | 'host' | 'remote' | 'console';

/** A variable as @netnet/server-kit's variable() makes it, so a process's config composes these. */
export interface Variable<T> {
  name: string;
  schema: ZodType<T>;
  meaning: string;
}

export interface DeploySettings {
  /** Where releases live (an absolute path). */
  readonly deployDir: string;
}

/**
 * The settings /remotes.json is made of. A config holding them also holds each remote's origin
 * (NETNET_REMOTE_<NAME>_URL, one per remote of the table), read through remoteMap() and origin() only.
 */
export interface MapSettings {
  readonly deployUrl: string;
}

/** The settings /config.json is made of. */
export interface RuntimeSettings {
  readonly catalogueUrl: string;
  readonly firebaseApiKey: string | undefined;
  readonly firebaseProjectId: string | undefined;
  readonly firebaseAuthDomain: string | undefined;
  readonly firebaseAppId: string | undefined;
  readonly authEmulatorUrl: string;
}

/** What /config.json answers: what a page's browser code, and its render process, are told. */
export interface RuntimeConfig {
  catalogueUrl: string;
  firebase: { apiKey: string | undefined; authDomain: string; projectId: string | undefined; appId?: string | undefined };
  authEmulatorUrl: string | null;
}

export type SiteSettings = DeploySettings & MapSettings & RuntimeSettings & { readonly shellUrl: string };

type Variables<S> = { readonly [K in keyof S]: Variable<S[K]> };

declare const site: {
  apps: Record<string, { kind: AppKind; port?: number }>;
  ports: Record<string, number>;
  remotes: string[];
  webApps: string[];
  builtApps: string[];
  testedApps: string[];
  federationName(app: string): string;
  DEPLOY_DIR_VARIABLES: Variables<DeploySettings>;
  MAP_VARIABLES: Variables<MapSettings>;
  RUNTIME_VARIABLES: Variables<RuntimeSettings>;
  SITE_URL_VARIABLES: Variables<{ readonly shellUrl: string }>;
  SITE_VARIABLES: Variables<SiteSettings>;
  /** Every variable of the table read from `env` (the tools'); throws naming every wrong one. */
  readSite(env?: NodeJS.ProcessEnv): SiteSettings;
  /** Where browsers reach an app with a port of its own. */
  origin(app: string, settings: object): string;
  runtimeConfig(settings: RuntimeSettings): RuntimeConfig;
  /** /remotes.json when no release is rolled out: each remote from its own build. */
  remoteMap(settings: MapSettings): { remotes: Record<string, { stable: BuiltRelease }> };
};

export default site;
