// What the programs that start the site read from their environment, each read once at its start
// (a wrong value stops it before anything starts, every wrong variable named). `npm start` hosts a
// shell in its own process, so it reads the shell's config too (shell/server/config.ts); every
// process it starts reads its own. The one table of them all: docs/environment.md.
import { LISTEN_VARIABLES, onOff, variable, wholeNumber, type ConfigOf } from '@netnet/server-kit';
import { CONTROL_PORT_VARIABLES, ROLE_DATABASE_VARIABLES, STORE_VARIABLES } from '@netnet/control-plane/config';
import site from '@netnet/site';
import { SHELL_VARIABLES } from 'shell/server/config.ts';
import { z } from 'zod';

/** `npm start`, and `npm run start:cluster` besides its own. */
export const START_VARIABLES = {
  guard: variable('NETNET_GUARD', onOff.default('on'), 'off: no guard process is started beside the site (one runs elsewhere: npm run rollout -- guard)'),
  // Where the API it starts listens, and the store it opens first (as the commands' role) to
  // register releases published before the store knew them.
  ...CONTROL_PORT_VARIABLES,
  ...STORE_VARIABLES,
  ...ROLE_DATABASE_VARIABLES.cli,
  // Whether the Auth emulator is started: not with a real Firebase project.
  ...site.RUNTIME_VARIABLES,
};

/** `npm run start:cluster`: the production topology on this machine (docs/deploy.md). */
export const CLUSTER_VARIABLES = {
  ...START_VARIABLES,
  instances: variable('NETNET_INSTANCES', wholeNumber(1).refine((count) => count <= 64, 'must be at most 64').default(2), 'how many shell instances run behind nginx'),
  instancePort: variable('NETNET_INSTANCE_PORT', wholeNumber(1024).default(8081), "the first instance's port; the others take the ports after it"),
  nginxWorkers: variable('NETNET_NGINX_WORKERS', z.union([z.literal('auto'), wholeNumber(1)]).default(1), "nginx's worker processes (auto in production: one per core)"),
  pagesPerClient: variable('NETNET_NGINX_PAGES_PER_CLIENT', wholeNumber(1).optional(), 'pages nginx lets one client have rendered at once (default 8), raised for a load generator'),
  pagesPerSecond: variable('NETNET_NGINX_PAGES_PER_SECOND', wholeNumber(1).optional(), 'pages and ticketed maps a second nginx lets one client have (default 20, burst 100), raised for a load generator'),
  // Handed to every instance, so they all sign and check tickets alike; made up for the run when unset.
  ticketSecret: SHELL_VARIABLES.ticketSecret,
  // Where nginx listens, and what its pages' policy allows (as the instances' own).
  ...LISTEN_VARIABLES,
  ...site.MAP_VARIABLES,
};

export type StartConfig = ConfigOf<typeof START_VARIABLES>;
export type ClusterConfig = ConfigOf<typeof CLUSTER_VARIABLES>;
