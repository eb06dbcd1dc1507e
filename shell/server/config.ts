// What a shell instance reads from its environment, read once when it starts: each variable with
// what it may hold, its default and what it means (docs/environment.md explains them for
// operators). A wrong value stops the instance at once, with the variable named. The variables
// other processes read too are defined once, where the code that reads them is, and composed here.
import {
  CONNECTION_VARIABLES,
  describeConfig,
  LISTEN_VARIABLES,
  LOG_VARIABLES,
  onOff,
  OPERATOR_VARIABLES,
  PROXY_VARIABLES,
  readConfig,
  variable,
  wholeNumber,
  type ConfigOf,
} from '@netnet/server-kit';
import { ENVIRONMENT_VARIABLES, OTLP_VARIABLES, QA_SECRET_VARIABLES, ROLE_DATABASE_VARIABLES, STORE_VARIABLES } from '@netnet/control-plane/instance';
import site from '@netnet/site';
import { z } from 'zod';

const text = z.string().optional();

export const SHELL_VARIABLES = {
  ...LISTEN_VARIABLES,
  port: variable('PORT', wholeNumber(1).default(8081), "an instance's port (npm start serves the shell on 8080)"),
  ...ENVIRONMENT_VARIABLES,
  ssr: variable('NETNET_SSR', onOff.default('on'), 'off: the shell answers every page with its index.html, the browser rendering all of it (the benchmark\'s baseline)'),
  earlyHints: variable('NETNET_EARLY_HINTS', z.enum(['103', 'link']).default('103'), "link: a page's Early Hints as Link headers on the 200, for a front door that cannot relay a 103"),
  instanceName: variable('NETNET_INSTANCE_NAME', text, 'what the instance calls itself in its log (default shell:<port>)'),
  ...CONNECTION_VARIABLES,
  ...PROXY_VARIABLES,
  ticketSecret: variable(
    'NETNET_TICKET_SECRET',
    text,
    'the secret release-health tickets are signed with, the same on every instance (32 bytes or more); unset, one is made up per start, and production refuses to start',
  ),
  ticketSecretPrevious: variable('NETNET_TICKET_SECRET_PREVIOUS', text, 'the secret tickets were signed with before a rotation, still believed'),
  ...OPERATOR_VARIABLES,
  ...STORE_VARIABLES,
  ...ROLE_DATABASE_VARIABLES.instance,
  ...LOG_VARIABLES,
  ...site.MAP_VARIABLES,
  ...site.RUNTIME_VARIABLES,
  ...QA_SECRET_VARIABLES,
  ...OTLP_VARIABLES,
};

export type ShellConfig = ConfigOf<typeof SHELL_VARIABLES>;

/** The instance's config from `env`; throws naming every wrong variable. */
export const readShellConfig = (env: NodeJS.ProcessEnv): ShellConfig => readConfig(SHELL_VARIABLES, env);

/** Every variable the shell's server reads, for `--help` and the docs. */
export const shellVariables = () => describeConfig(SHELL_VARIABLES);
