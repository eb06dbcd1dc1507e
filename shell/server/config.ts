// What a shell instance reads from its environment, read once when it starts: each variable with
// what it may hold, its default and what it means (docs/environment.md explains them for
// operators). A wrong value stops the instance at once, with the variable named.
import { describeConfig, onOff, readConfig, variable, wholeNumber, type ConfigOf } from '@netnet/server-kit';
import { z } from 'zod';

const text = z.string().optional();

export const SHELL_VARIABLES = {
  host: variable('HOST', z.string().default('127.0.0.1'), 'the address the servers listen on (127.0.0.1: this machine only)'),
  port: variable('PORT', wholeNumber(1).default(8081), "an instance's port (npm start serves the shell on 8080)"),
  environment: variable('NETNET_ENV', z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lowercase letters, digits and "-"').default('local'), 'whose rollout map the pages use'),
  ssr: variable('NETNET_SSR', onOff.default('on'), 'off: the shell answers every page with its index.html, the browser rendering all of it'),
  earlyHints: variable('NETNET_EARLY_HINTS', z.enum(['103', 'link']).default('103'), "link: a page's Early Hints as Link headers, for a front door that cannot relay a 103"),
  instanceName: variable('NETNET_INSTANCE_NAME', text, 'what the instance calls itself in its log (default shell:<port>)'),
  connectionsPerClient: variable('NETNET_CONNECTIONS_PER_CLIENT', wholeNumber(1).default(64), 'open connections one client may hold (many members behind one NAT: raise it)'),
  trustedProxies: variable('NETNET_TRUSTED_PROXIES', text, 'the front doors whose X-Real-IP / X-Forwarded-* are believed: addresses, CIDR ranges or "loopback"'),
  trustedProxySecret: variable('NETNET_TRUSTED_PROXY_SECRET', text, "the front door's proof on every request it passes on, when other local processes share its address"),
  ticketSecret: variable('NETNET_TICKET_SECRET', text, 'the secret release-health tickets are signed with, the same on every instance (32 bytes or more)'),
  ticketSecretPrevious: variable('NETNET_TICKET_SECRET_PREVIOUS', text, 'the secret tickets were signed with before a rotation, still believed'),
  internalAddresses: variable('NETNET_INTERNAL_ADDRESSES', text, 'who may read /metrics and the probes without the operator token (default 127.0.0.1,::1)'),
  operatorToken: variable('NETNET_OPERATOR_TOKEN', text, 'the token that opens /metrics and the probes from anywhere'),
  database: variable('DATABASE_URL_INSTANCE', text, "the instances' role's login to the store (default DATABASE_URL, else the embedded one)"),
  logLevel: variable('NETNET_LOG_LEVEL', z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'), 'the least a log line must weigh to be written'),
};

export type ShellConfig = ConfigOf<typeof SHELL_VARIABLES>;

/** The instance's config from `env`; throws naming every wrong variable. */
export const readShellConfig = (env: NodeJS.ProcessEnv = process.env): ShellConfig => readConfig(SHELL_VARIABLES, env);

/** Every variable the shell's server reads, for `--help` and the docs. */
export const shellVariables = () => describeConfig(SHELL_VARIABLES);
