// The site table (@netnet/site) for the three modules that still take the process's environment
// rather than settings: releases/upload.ts, releases/originFolder.ts and releases/prune.ts. Their
// variables are in the config of every process that runs them (./config.ts), so a wrong value has
// stopped the process at start; here they are read again from that same environment, through the
// same schema. Everything else imports @netnet/site and is handed its settings.
import table, { type RuntimeConfig } from '@netnet/site';
import { readConfig } from '@netnet/server-kit';

export const site = {
  remotes: table.remotes,
  /** Where releases live (NETNET_DEPLOY_DIR). */
  deployDir: (env: NodeJS.ProcessEnv): string => readConfig(table.DEPLOY_DIR_VARIABLES, env).deployDir,
  /** Where browsers reach the published releases (NETNET_DEPLOY_URL). */
  deployOrigin: (env: NodeJS.ProcessEnv): string => readConfig({ deployUrl: table.MAP_VARIABLES.deployUrl }, env).deployUrl,
  /** /config.json (the catalogue, Firebase or its emulator). */
  runtimeConfig: (env: NodeJS.ProcessEnv): RuntimeConfig => table.runtimeConfig(readConfig(table.RUNTIME_VARIABLES, env)),
};
