import type { Server } from 'node:http';
import { isIPv6, type Socket } from 'node:net';

// The service's share of connections per client, and its deadlines (docs/architecture.md,
// "Limits"): the same as the site's other servers (scripts/serve.mjs), so that one client holding
// sockets, sending nothing or pipelining a flood cannot keep everyone else's posters from loading.

export interface ConnectionLimits {
  /** A whole request line and headers within this of a connection opening (or of the previous answer). */
  headersTimeout: number;
  /** The whole request, body included (the service takes none). */
  requestTimeout: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeout: number;
  /** Open connections per client address (an IPv6 /64 counts as one); past it, closed at once. */
  connectionsPerClient: number;
  /** Open connections in all. */
  maxConnections: number;
  /** Requests one connection may have waiting for their answers; more, and it is closed. */
  pipelinedRequests: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = Object.freeze({
  headersTimeout: 1_500,
  requestTimeout: 5_000,
  keepAliveTimeout: 5_000,
  connectionsPerClient: 64,
  maxConnections: 4_096,
  pipelinedRequests: 16,
});

/** The options node:http's createServer takes for the deadlines; Node checks them on this interval. */
export function serverTimeouts({ headersTimeout, requestTimeout, keepAliveTimeout }: ConnectionLimits) {
  return { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval: Math.min(250, headersTimeout / 2) };
}

/** What a client is counted by: its address, or an IPv6 address's /64 (one customer's network). */
export function clientKey(address = ''): string {
  const plain = address.startsWith('::ffff:') && !address.slice(7).includes(':') ? address.slice(7) : address;
  if (!isIPv6(plain)) return plain;
  const [head = '', tail = ''] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = plain.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(plain.includes('::') ? Math.max(0, 8 - left.length - right.length) : 0).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}

const PIPELINED = Symbol('requests waiting for their answers on this connection');
type CountedSocket = Socket & { [PIPELINED]?: number };

/** Applies the per-client cap, the total cap and the pipeline limit to `server` (the deadlines go to createServer). */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.keepAliveTimeout = limits.keepAliveTimeout;
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = clientKey(socket.remoteAddress);
    const count = (open.get(key) ?? 0) + 1;
    if (count > limits.connectionsPerClient) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
  // Registered before the service's own handler, so a connection over the limit is closed before any work.
  server.prependListener('request', (req, res) => {
    const socket = req.socket as CountedSocket;
    socket[PIPELINED] = (socket[PIPELINED] ?? 0) + 1;
    res.once('close', () => {
      socket[PIPELINED] = (socket[PIPELINED] ?? 1) - 1;
    });
    if (socket[PIPELINED] > limits.pipelinedRequests) socket.destroy();
  });
}
