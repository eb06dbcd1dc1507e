// Who may read what is for operators — /metrics (the guard's inputs, live) and an instance's probes
// — under `npm start` as under the cluster (docs/deploy.md, "Operator endpoints"): a request whose
// socket's own peer is an internal address (NETNET_INTERNAL_ADDRESSES: addresses, CIDR ranges or
// `loopback`, as NETNET_TRUSTED_PROXIES; 127.0.0.1 and ::1 by default) and that no front door
// forwarded (a forwarded one is a client's, whoever the proxy is), or one that carries
// `Authorization: Bearer <NETNET_OPERATOR_TOKEN>`.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parseTrustedProxies, type TrustedProxies } from './trustedProxies.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Who is internal when NETNET_INTERNAL_ADDRESSES is unset: this machine. */
export const INTERNAL_ADDRESSES = '127.0.0.1,::1';

/** What decides it: a server's OPERATOR_VARIABLES (./variables.ts). */
export interface OperatorSettings {
  internalAddresses?: string | undefined;
  operatorToken?: string | undefined;
}

/** The check for one server: operatorRequest(req) says whether req may read operator endpoints. */
export function operatorAccess({ internalAddresses = INTERNAL_ADDRESSES, operatorToken }: OperatorSettings): (req: Pick<IncomingMessage, 'headers' | 'socket'>) => boolean {
  const internal: TrustedProxies = parseTrustedProxies(internalAddresses, '', 'NETNET_INTERNAL_ADDRESSES');
  const token = operatorToken ? digest(operatorToken) : null;
  return (req) => {
    const authorization = req.headers.authorization;
    // Compared as digests: the same time whatever was sent.
    if (token && typeof authorization === 'string' && authorization.startsWith('Bearer ') && timingSafeEqual(digest(authorization.slice(7)), token)) return true;
    const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers['x-real-ip'] !== undefined;
    return !forwarded && internal.has(req.socket?.remoteAddress);
  };
}
