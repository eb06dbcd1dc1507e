// Where the control-plane API listens: NETNET_CONTROL_PORT, else 8070 (control-plane/bin/api.ts,
// and `npm start` / `npm run start:cluster`, which start it). Not in the site table: every app's
// build reads that table, and the API's port is none of theirs.
import { readConfig, variable, wholeNumber } from '@netnet/server-kit';

export const CONTROL_PORT = 8070;

/** Read by the API, by what starts it, and by the command that prints the console's sign-in links. */
export const CONTROL_PORT_VARIABLES = {
  controlPort: variable(
    'NETNET_CONTROL_PORT',
    wholeNumber(1).refine((port) => port <= 65535, 'not a port').default(CONTROL_PORT),
    "the control-plane API's port (npm start and start:cluster start it there)",
  ),
};

/** The port from `env`, for the tools that reach the API outside a process's config (the benchmarks). */
export const controlPort = (env: NodeJS.ProcessEnv): number => readConfig(CONTROL_PORT_VARIABLES, env).controlPort;
