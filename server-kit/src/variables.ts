// The variables the servers read alike, each defined once: a server's config (its config.ts)
// composes the groups it reads, and docs/environment.md lists each with who reads it.
import { z } from 'zod';
import { variable, wholeNumber } from './config.ts';
import { CONNECTION_LIMITS } from './connections.ts';
import { INTERNAL_ADDRESSES } from './operatorAccess.ts';
import { addressListProblem } from './trustedProxies.ts';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A list of addresses, CIDR ranges and `loopback`, checked when it is read: a typo trusts nobody (or everybody) otherwise. */
const addressList = z.string().superRefine((value, context) => {
  const problem = addressListProblem(value);
  if (problem !== null) context.addIssue({ code: 'custom', message: problem });
});

export const LISTEN_VARIABLES = {
  host: variable('HOST', z.string().default('127.0.0.1'), 'the address the server listens on: 127.0.0.1 this machine only, 0.0.0.0 every interface'),
};

export const LOG_VARIABLES = {
  logLevel: variable('NETNET_LOG_LEVEL', z.enum(LOG_LEVELS).default('info'), 'the least a log line (JSON, pino) must weigh to be written: trace, debug, info, warn, error, fatal or silent'),
};

/** Who is believed about the client and the scheme (./trustedProxies.ts, docs/limits.md). */
export const PROXY_VARIABLES = {
  trustedProxies: variable(
    'NETNET_TRUSTED_PROXIES',
    addressList.optional(),
    'the front doors believed about the client and the scheme (X-Real-IP, X-Forwarded-*): comma-separated addresses, CIDR ranges or "loopback"; unset, none',
  ),
  trustedProxySecret: variable(
    'NETNET_TRUSTED_PROXY_SECRET',
    z.string().optional(),
    'set: a trusted front door is believed only on a request carrying it in X-Netnet-Front-Door (other local processes share its address)',
  ),
};

export const CONNECTION_VARIABLES = {
  connectionsPerClient: variable(
    'NETNET_CONNECTIONS_PER_CLIENT',
    wholeNumber(1).default(CONNECTION_LIMITS.connectionsPerClient),
    'open connections one client address (an IPv6 /64) may hold on the server (many members behind one NAT: raise it)',
  ),
};

/** Who may read /metrics and the probes (./operatorAccess.ts). */
export const OPERATOR_VARIABLES = {
  internalAddresses: variable(
    'NETNET_INTERNAL_ADDRESSES',
    addressList.default(INTERNAL_ADDRESSES),
    'who may read /metrics and the probes without the token: a peer among these addresses, CIDR ranges or "loopback", not forwarded by a proxy',
  ),
  operatorToken: variable('NETNET_OPERATOR_TOKEN', z.string().optional(), 'the token (Authorization: Bearer) that opens /metrics and the probes from anywhere'),
};
