// The life of one shell instance behind a load balancer (docs/deploy.md, "Instances"): it answers
// its probes, is ready only once it listens (the shell's server has loaded its server builds
// before that), and on SIGTERM drains — no new connections, in-flight renders finished, kept-alive
// connections closed once the front door has stopped using them — so no member's request fails
// while instances come and go.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import net from 'node:net';
import { operatorAccess, type OperatorSettings } from '@netnet/server-kit';

/** The readiness probe: 200 while the instance takes traffic, 503 while it starts or drains. */
export const READY_PATH = '/healthz';
/** The liveness probe: 200 while the process answers at all (draining included). */
export const LIVE_PATH = '/livez';

/**
 * How long a draining instance keeps idle kept-alive connections open: longer than the front
 * door keeps an idle connection to an instance (4 s, site/cluster/nginxConfig.mjs), so nginx
 * has closed each one itself before the instance would. An instance that closed one first could
 * do it just as nginx sends a request on it: a GET would be retried elsewhere, a POST lost.
 */
export const IDLE_GRACE_MS = 5_000;
/** The most a drain waits for in-flight requests before cutting them (an orchestrator's grace is 30 s). */
export const DRAIN_TIMEOUT_MS = 25_000;

type State = 'starting' | 'ready' | 'draining' | 'stopped';

export interface LifecycleOptions {
  idleGraceMs?: number;
  drainTimeoutMs?: number;
  /**
   * Send the page's Early Hints as Link headers on its response instead of a 103, for a front
   * door that cannot relay a 103 (nginx 1.22 takes it for the final response).
   */
  hintsAsLinkHeaders?: boolean;
  /** More to tell in the probes' answers (e.g. the store's state). */
  details?: () => Record<string, unknown>;
  onState?: (state: State) => void;
  /** Who may ask the probes: the instance's OPERATOR_VARIABLES (NETNET_INTERNAL_ADDRESSES, NETNET_OPERATOR_TOKEN). */
  operator: OperatorSettings;
}

type Handler = (this: Server, req: IncomingMessage, res: ServerResponse) => void;

export function createLifecycle({
  idleGraceMs = IDLE_GRACE_MS,
  drainTimeoutMs = DRAIN_TIMEOUT_MS,
  hintsAsLinkHeaders = false,
  details = () => ({}),
  onState = () => {},
  operator,
}: LifecycleOptions) {
  const operatorRequest = operatorAccess(operator);
  let state: State = 'starting';
  let server: Server | null = null;
  const open = new Set<ServerResponse>();
  let drained: Promise<void> | null = null;
  const started = Date.now();
  const enter = (next: State) => {
    state = next;
    onState(next);
  };

  function probe(req: IncomingMessage, res: ServerResponse) {
    // For the orchestrator, as /metrics is for the operator: an internal address or the operator token.
    if (!operatorRequest(req)) {
      res.writeHead(403, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
      res.end('for operators: an internal address or the operator token');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    const ok = path === LIVE_PATH ? state !== 'stopped' : state === 'ready';
    const body = JSON.stringify({
      status: state,
      pid: process.pid,
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
      inFlight: open.size - 1,
      ...details(),
    });
    res.writeHead(ok ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...(state === 'draining' && { Connection: 'close' }) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /**
   * Puts the instance in front of `httpServer`'s own request handler (the shell's server, as
   * ./shellServer.ts made it): probes are answered here, every other request goes on to it.
   */
  function serve(httpServer: Server) {
    server = httpServer;
    const handlers = httpServer.listeners('request') as Handler[];
    httpServer.removeAllListeners('request');
    httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
      open.add(res);
      res.once('close', () => open.delete(res));
      // Each request a draining instance still gets (on a connection nginx opened before) is its
      // connection's last.
      if (state === 'draining') res.shouldKeepAlive = false;
      const path = (req.url ?? '/').split('?')[0];
      if (path === READY_PATH || path === LIVE_PATH) return probe(req, res);
      if (hintsAsLinkHeaders) {
        res.writeEarlyHints = (hints: Record<string, string | string[]>) => {
          if (!res.headersSent && hints.link) res.setHeader('Link', hints.link);
        };
      }
      for (const handler of handlers) handler.call(httpServer, req, res);
    });
    enter('ready');
  }

  /**
   * Stops taking traffic and resolves once every connection has ended (or the drain timed out).
   * Calling it again returns the same promise.
   */
  function drain() {
    if (drained) return drained;
    if (!server) {
      enter('stopped');
      return (drained = Promise.resolve());
    }
    const httpServer = server;
    enter('draining');
    drained = new Promise<void>((resolve) => {
      // net.Server's close stops accepting and waits for the open connections; http.Server's own
      // close would also drop the idle kept-alive ones at once, racing nginx's next request on them.
      net.Server.prototype.close.call(httpServer, () => resolve());
      for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
      const idle = setTimeout(() => httpServer.closeIdleConnections(), idleGraceMs);
      const cut = setTimeout(() => httpServer.closeAllConnections(), drainTimeoutMs);
      idle.unref();
      cut.unref();
    }).then(() => enter('stopped'));
    return drained;
  }

  return {
    serve,
    drain,
    get state() {
      return state;
    },
    /** Requests being answered now (probes included). */
    get inFlight() {
      return open.size;
    },
  };
}

/** A server that can tell the store's state (./shellServer.ts's). */
export type InstanceServer = Server & { storeState?: () => unknown; releaseCode?: unknown };

/**
 * Runs one instance process: `start()` makes the server (listening, warmed), then the lifecycle
 * serves it; SIGTERM drains and exits, SIGINT stops at once. Each state is told to a supervising
 * process over IPC when there is one (site/cluster/instances.mjs); a container has none.
 */
export async function runInstance({
  name,
  start,
  log = console.log,
  ...lifecycleOptions
}: { name: string; start: () => Promise<InstanceServer>; log?: (line: string) => void } & Omit<LifecycleOptions, 'details' | 'onState'>) {
  let server: InstanceServer | null = null;
  const lifecycle = createLifecycle({
    ...lifecycleOptions,
    // The store's side of readiness, when the server tells it (the map it serves, how fresh), and
    // whether releases' server code runs here (sandboxed) or nowhere (their areas browser-only).
    details: () => ({ ...(typeof server?.storeState === 'function' && { store: server.storeState() }), ...(server?.releaseCode !== undefined && { releaseCode: server.releaseCode }) }),
    onState: (state) => process.send?.({ state }),
  });
  async function stop(how: 'drain' | 'now') {
    const began = Date.now();
    if (how === 'drain') log(`${name} draining`);
    else server?.closeAllConnections();
    await lifecycle.drain();
    log(`${name} ${how === 'drain' ? `drained in ${Date.now() - began} ms` : 'stopped'}`);
    // The server's own close handlers (guard, store) run on its close; give them a moment.
    setTimeout(() => process.exit(0), 200).unref();
  }
  process.on('SIGTERM', () => void stop('drain'));
  process.on('SIGINT', () => void stop('now'));
  // A supervisor that died without stopping its instances (kill -9) leaves none behind on its ports.
  process.on('disconnect', () => void stop('now'));
  try {
    server = await start();
    lifecycle.serve(server);
    log(`${name} ready (pid ${process.pid})`);
  } catch (error) {
    console.error(`${name} could not start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  return lifecycle;
}
