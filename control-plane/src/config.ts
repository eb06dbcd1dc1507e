// What each process of the control plane reads from its environment: one schema per process,
// composed from the groups each variable is defined in once (beside the code that uses it, the
// site table's and the server kit's). Each entry (bin/) reads its config once, at start, and hands
// it down: a wrong value stops it before it does anything, every wrong variable named. The one
// table of them all, with who reads each: docs/environment.md.
import site from '@netnet/site';
import { LISTEN_VARIABLES, LOG_VARIABLES, PROXY_VARIABLES, readConfig, type ConfigOf, type Variable } from '@netnet/server-kit';
import { API_TARGET_VARIABLES } from './api/client.ts';
import { CONSOLE_URL_VARIABLES } from './api/console/sessions.ts';
import { CONTROL_PORT_VARIABLES } from './api/port.ts';
import { GUARD_NETWORK_VARIABLES } from './health/network.ts';
import { SHELL_MANIFEST_VARIABLES } from './releases/compatibilityGate.ts';
import { QA_SECRET_VARIABLES } from './rollouts/qaToken.ts';
import { ROLE_DATABASE_VARIABLES, STORE_VARIABLES } from './store/database.ts';
import { ENVIRONMENT_VARIABLES } from './store/rollouts.ts';

export { API_TARGET_VARIABLES, CONSOLE_URL_VARIABLES, CONTROL_PORT_VARIABLES, GUARD_NETWORK_VARIABLES, QA_SECRET_VARIABLES, SHELL_MANIFEST_VARIABLES };
export { ENVIRONMENT_VARIABLES, ROLE_DATABASE_VARIABLES, STORE_VARIABLES };

/** The store as the commands open it (their role, `cli`). */
const CLI_STORE_VARIABLES = { ...STORE_VARIABLES, ...ROLE_DATABASE_VARIABLES.cli };

/**
 * `npm run control-api` (control-plane/bin/api.ts). Besides its own: what an upload's checks read
 * (the runtime documents a release's server build is rendered with, the releases' origin, the
 * shell's manifest), and the guard's rule the status it answers follows.
 */
export const API_VARIABLES = {
  ...LISTEN_VARIABLES,
  ...CONTROL_PORT_VARIABLES,
  ...LOG_VARIABLES,
  ...PROXY_VARIABLES,
  ...STORE_VARIABLES,
  ...ROLE_DATABASE_VARIABLES.api,
  ...site.MAP_VARIABLES,
  ...site.RUNTIME_VARIABLES,
  ...SHELL_MANIFEST_VARIABLES,
  ...GUARD_NETWORK_VARIABLES,
};

/**
 * `npm run rollout -- guard`: one environment's guard, a process of its own. It reads the API's
 * address only to refuse it: a guard acts on the store beside it, never through the API.
 */
export const GUARD_VARIABLES = {
  ...ENVIRONMENT_VARIABLES,
  ...API_TARGET_VARIABLES,
  ...CLI_STORE_VARIABLES,
  ...GUARD_NETWORK_VARIABLES,
};

/** `npm run release`: publishes into the origin folder and the store, or through the API. */
export const RELEASE_VARIABLES = {
  ...API_TARGET_VARIABLES,
  ...CLI_STORE_VARIABLES,
};

/** `npm run rollout` (but `guard`): changes a map (through the gate), shows the status and the map, prunes. */
export const ROLLOUT_VARIABLES = {
  ...ENVIRONMENT_VARIABLES,
  ...API_TARGET_VARIABLES,
  ...CLI_STORE_VARIABLES,
  ...site.MAP_VARIABLES,
  ...SHELL_MANIFEST_VARIABLES,
  ...GUARD_NETWORK_VARIABLES,
};

/** `npm run tokens`: the API's tokens, and sign-in links to the console. */
export const TOKENS_VARIABLES = {
  ...CLI_STORE_VARIABLES,
  ...CONTROL_PORT_VARIABLES,
  ...CONSOLE_URL_VARIABLES,
};

/** `npm run qa-token`: makes, lists and revokes an environment's QA tokens. */
export const QA_TOKEN_VARIABLES = {
  ...ENVIRONMENT_VARIABLES,
  ...QA_SECRET_VARIABLES,
  ...CLI_STORE_VARIABLES,
};

/**
 * `npm run openapi -w @netnet/control-plane`: none. The description is the code's alone, so it is
 * made from an API whose every setting is its default, whatever the environment holds.
 */
export const OPENAPI_VARIABLES = {};

export type ApiConfig = ConfigOf<typeof API_VARIABLES>;
export type GuardConfig = ConfigOf<typeof GUARD_VARIABLES>;
export type ReleaseConfig = ConfigOf<typeof RELEASE_VARIABLES>;
export type RolloutConfig = ConfigOf<typeof ROLLOUT_VARIABLES>;
export type TokensConfig = ConfigOf<typeof TOKENS_VARIABLES>;
export type QaTokenConfig = ConfigOf<typeof QA_TOKEN_VARIABLES>;

/** The API's config from `env` (its entry's, or a test's own); throws naming every wrong variable. */
export const readApiConfig = (env: NodeJS.ProcessEnv): ApiConfig => readConfig(API_VARIABLES, env);

/** Every process of the control plane and the variables it reads, for the docs' check. */
export const CONTROL_PLANE_PROCESSES: Record<string, Record<string, Variable<unknown>>> = {
  api: API_VARIABLES,
  guard: GUARD_VARIABLES,
  release: RELEASE_VARIABLES,
  rollout: ROLLOUT_VARIABLES,
  tokens: TOKENS_VARIABLES,
  'qa-token': QA_TOKEN_VARIABLES,
  openapi: OPENAPI_VARIABLES,
};
