// What makes every open console show a change within a second, whoever made it (the CLI, a
// pipeline, the guard, another person): the store announces each map change and each release
// (NOTIFY netnet_rollout / netnet_releases, store/rollouts.ts and store/releases.ts), this process
// listens on one connection of its own (as store/liveMap.ts does for the site's servers) and
// passes each announcement to the consoles open on that environment as a server-sent event.
// A lost connection is made again; the consoles are then told to read everything afresh, since
// an announcement made meanwhile was never heard.
import type http from 'node:http';
import pg from 'pg';
import { RELEASES_CHANNEL } from '../../store/releases.ts';
import { ROLLOUT_CHANNEL } from '../../store/rollouts.ts';

/** Comments sent this often keep the stream (and the API's idle timeout) alive and show a dead one. */
const HEARTBEAT_MS = 5_000;

interface Subscriber {
  environment: string;
  res: http.ServerResponse;
}

export interface ConsoleEvents {
  /** Streams `environment`'s changes to `res` until the browser goes away. */
  subscribe(environment: string, req: http.IncomingMessage, res: http.ServerResponse): void;
  close(): Promise<void>;
}

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function consoleEvents(config: pg.ClientConfig): ConsoleEvents {
  const subscribers = new Set<Subscriber>();
  let listener: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;

  const broadcast = (event: string, data: unknown, environment?: string) => {
    for (const subscriber of subscribers) if (environment === undefined || subscriber.environment === environment) subscriber.res.write(frame(event, data));
  };

  async function listen() {
    if (closed || listener) return;
    const client = new pg.Client({ ...config, connectionTimeoutMillis: 3_000, keepAlive: true, application_name: 'netnet-console-events' });
    const reconnect = () => {
      if (listener !== client) return;
      listener = null;
      client.end().catch(() => {});
      broadcast('store', { listening: false });
      if (!closed && subscribers.size > 0) setTimeout(() => void start(), 1_000).unref();
    };
    client.on('error', reconnect);
    client.on('end', reconnect);
    client.on('notification', ({ channel, payload = '' }) => {
      const [first = '', version = ''] = payload.split(' ');
      if (channel === ROLLOUT_CHANNEL) broadcast('rollout', { environment: first, mapVersion: Number(version) }, first);
      else if (channel === RELEASES_CHANNEL) broadcast('release', { remote: first, version });
    });
    listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${ROLLOUT_CHANNEL}`);
      await client.query(`LISTEN ${RELEASES_CHANNEL}`);
      // Anything announced while no connection listened: read it all again.
      broadcast('store', { listening: true });
    } catch {
      reconnect();
    }
  }

  function start(): Promise<void> {
    connecting ??= listen().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  return {
    subscribe(environment, req, res) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        // A proxy in front (nginx) must pass each event on as it comes.
        'X-Accel-Buffering': 'no',
      });
      // The browser's EventSource tries again after this long when the stream breaks.
      res.write('retry: 1000\n\n');
      const subscriber = { environment, res };
      subscribers.add(subscriber);
      res.write(frame('store', { listening: listener !== null && connecting === null }));
      const heartbeat = setInterval(() => res.write(': alive\n\n'), HEARTBEAT_MS);
      const leave = () => {
        clearInterval(heartbeat);
        subscribers.delete(subscriber);
      };
      req.once('close', leave);
      res.once('close', leave);
      void start();
    },
    async close() {
      closed = true;
      for (const { res } of subscribers) res.end();
      subscribers.clear();
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
    },
  };
}
