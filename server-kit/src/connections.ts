// What no Fastify option does: a share of connections per client, so that one client holding
// sockets, sending nothing or pipelining a flood cannot keep everyone else out (docs/limits.md).
// Fastify takes the deadlines (serverOptions); limitConnections adds the counting to its server.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { clientKey, type TrustedProxies } from './trustedProxies.ts';

export interface ConnectionLimits {
  /** A whole request line and headers within this of a connection opening (or of the previous answer). */
  headersTimeout: number;
  /** The whole request, body included. */
  requestTimeout: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeout: number;
  /** Open connections per client (an IPv6 /64 counts as one; a trusted proxy is exempt: it carries everyone). */
  connectionsPerClient: number;
  /** Open connections in all. */
  maxConnections: number;
  /** Requests one connection may have waiting for their answers; more, and it is closed (browsers never pipeline). */
  pipelinedRequests: number;
  /** A connection that sends nothing for this long, mid-request too (a stalled upload), is closed; 0: never. */
  idleTimeout: number;
}

/** The site's servers' limits; a server with other needs (the control-plane API's uploads) overrides some. */
export const CONNECTION_LIMITS: Readonly<ConnectionLimits> = Object.freeze({
  headersTimeout: 1_500,
  requestTimeout: 5_000,
  keepAliveTimeout: 5_000,
  connectionsPerClient: 64,
  maxConnections: 4_096,
  pipelinedRequests: 16,
  idleTimeout: 0,
});

/** How often the header deadline is checked: well under it. */
const checkingInterval = (limits: ConnectionLimits) => Math.min(250, limits.headersTimeout / 2);

/**
 * The deadlines as Fastify's options. Node's own header deadline is only a backstop, at the
 * request's: Node judges it in the event loop's timer phase, before the bytes that arrived while
 * the process was busy are read, so after a stall of 1.5 s (a loaded machine, a long GC) it
 * answered 408 to requests that had come in time. limitConnections judges it after reading them.
 */
export function serverOptions(limits: ConnectionLimits) {
  return {
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    connectionTimeout: limits.idleTimeout,
    http: { headersTimeout: limits.requestTimeout, connectionsCheckingInterval: checkingInterval(limits) },
  };
}

export interface LimitOptions {
  /** Peers that carry many clients' connections: never counted per client, never asked to give one up. */
  trusted?: TrustedProxies;
  /**
   * Past maxConnections, a newcomer is not turned away while another client holds more: that
   * client's oldest connection is closed instead (so many addresses each holding their share of
   * slow uploads cannot keep a pipeline's one call out). Otherwise a newcomer past it is closed.
   */
  fairShare?: boolean;
}

const PIPELINED = Symbol('requests waiting for their answers on this connection');
const WAITING = Symbol('what the header deadline knows of this connection');
interface Waiting {
  /** When its next request began (the connection opened, or bytes came after its last answer); null: none yet. */
  since: number | null;
  /** bytesRead when its last answer ended: more means the next request has begun. */
  readBefore: number;
}
type CountedSocket = Socket & { [PIPELINED]?: number; [WAITING]?: Waiting };

const TIMED_OUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * The header deadline: a request's line and headers within headersTimeout of its start. Every
 * connection waiting for one is checked, then judged once more after the event loop has read what
 * is pending (setImmediate runs after the poll phase), so time the process spent busy is never
 * held against a client. A connection that never sent a byte is closed without an answer: a
 * browser opens spare connections ahead of need, and would take a 408 on one as the answer to the
 * request it sends there next. Returns what to call when a connection's answers are all sent.
 */
function enforceHeaderDeadline(server: FastifyInstance['server'], limits: ConnectionLimits) {
  const waiting = new Set<CountedSocket>();
  const late = (socket: CountedSocket, now: number) => {
    const state = socket[WAITING];
    if (!state || socket.destroyed || !waiting.has(socket)) return false;
    if (state.since === null && socket.bytesRead > state.readBefore) state.since = now;
    return state.since !== null && now - state.since > limits.headersTimeout;
  };
  /** Answered, and nothing of a next request come yet. */
  const idle = (socket: CountedSocket) => {
    const state = socket[WAITING];
    return !!state && !socket.destroyed && state.since === null && waiting.has(socket) && socket.bytesRead === state.readBefore;
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const socket of waiting) {
      if (!late(socket, now)) continue;
      setImmediate(() => {
        if (!late(socket, now)) return;
        waiting.delete(socket);
        // As Node does: a 408 only where nothing was answered before.
        if (socket.bytesRead > 0 && socket.bytesWritten === 0) socket.end(TIMED_OUT, () => socket.destroy());
        else socket.destroy();
      });
    }
  }, checkingInterval(limits));
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
  server.on('connection', (socket: CountedSocket) => {
    socket[WAITING] = { since: Date.now(), readBefore: 0 };
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
  });
  return {
    began: (socket: CountedSocket) => waiting.delete(socket),
    answered(socket: CountedSocket) {
      if (socket.destroyed) return;
      socket[WAITING] = { since: null, readBefore: socket.bytesRead };
      waiting.add(socket);
    },
    idle,
    /** The longest idle of all connections, if any is. */
    anyIdle() {
      for (const socket of waiting) if (idle(socket)) return socket;
      return undefined;
    },
  };
}

/** Applies the per-client cap, the total cap, the header deadline and the pipeline limit to `app`'s server. */
export function limitConnections(app: FastifyInstance, limits: ConnectionLimits, { trusted, fairShare = false }: LimitOptions = {}): void {
  const server = app.server;
  const headers = enforceHeaderDeadline(server, limits);
  const byClient = new Map<string, Set<Socket>>();
  let open = 0;
  /** Closes `spare` to make room for a newcomer; false if there is none. */
  const reclaim = (spare: Socket | undefined) => {
    spare?.destroy();
    return spare !== undefined;
  };
  /** Past the total, with fairShare: the oldest connection of a client holding more than the newcomer's would. */
  const fairShareOf = (mine: Set<Socket> | null) => {
    if (!fairShare) return undefined;
    let most: Set<Socket> | null = null;
    for (const held of byClient.values()) if (!most || held.size > most.size) most = held;
    return most && most.size > (mine?.size ?? 0) + 1 ? most.values().next().value : undefined;
  };
  server.on('connection', (socket: Socket) => {
    const key = trusted?.has(socket.remoteAddress) ? null : clientKey(socket.remoteAddress ?? '');
    const mine = key === null ? null : (byClient.get(key) ?? new Set<Socket>());
    // A kept-alive connection waiting for nothing makes room first: browsers keep several and resend
    // on another when one is closed, while a newcomer closed at once is a request failed.
    const full =
      (mine !== null && mine.size >= limits.connectionsPerClient && !reclaim([...mine].find(headers.idle))) ||
      (open >= limits.maxConnections && !reclaim(headers.anyIdle() ?? fairShareOf(mine)));
    if (full) {
      socket.destroy();
      return;
    }
    open += 1;
    socket.once('close', () => (open -= 1));
    if (key === null || mine === null) return;
    mine.add(socket);
    byClient.set(key, mine);
    socket.once('close', () => {
      mine.delete(socket);
      if (mine.size === 0 && byClient.get(key) === mine) byClient.delete(key);
    });
  });
  // Before the server's own handler, so a connection over its pipeline limit is closed before any work.
  server.prependListener('request', (req, res) => {
    const socket = req.socket as CountedSocket;
    headers.began(socket);
    socket[PIPELINED] = (socket[PIPELINED] ?? 0) + 1;
    res.once('close', () => {
      socket[PIPELINED] = (socket[PIPELINED] ?? 1) - 1;
      if (socket[PIPELINED] === 0) headers.answered(socket);
    });
    if (socket[PIPELINED] > limits.pipelinedRequests) socket.destroy();
  });
  // A request of a connection closed above is not answered: no route runs for it.
  // A callback, not an async hook: no promise on every request.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.socket.destroyed) reply.hijack();
    done();
  });
}
