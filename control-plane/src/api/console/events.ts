// What makes every open console show a change within a second, whoever made it (the CLI, a
// pipeline, the guard, another person): the store announces each map change and each release
// (NOTIFY netnet_rollout / netnet_releases, store/rollouts.ts and store/releases.ts), this process
// listens (store/notifications.ts, as the site's servers do) and passes each announcement to the
// consoles open on that environment as a server-sent event. When the listening connection is
// lost and made again, the consoles are told to read everything afresh.
import type http from 'node:http';
import type pg from 'pg';
import { storeNotifications } from '../../store/notifications.ts';
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
  const broadcast = (event: string, data: unknown, environment?: string) => {
    for (const subscriber of subscribers) if (environment === undefined || subscriber.environment === environment) subscriber.res.write(frame(event, data));
  };
  // Started by the first console to open, and kept only while one is open.
  const notifications = storeNotifications(config, {
    name: 'netnet-console-events',
    channels: [ROLLOUT_CHANNEL, RELEASES_CHANNEL],
    onNotification: (channel, payload) => {
      const [first = '', version = ''] = payload.split(' ');
      if (channel === ROLLOUT_CHANNEL) broadcast('rollout', { environment: first, mapVersion: Number(version) }, first);
      else if (channel === RELEASES_CHANNEL) broadcast('release', { remote: first, version });
    },
    // Anything announced while no connection listened: read it all again.
    onListening: () => broadcast('store', { listening: true }),
    onLost: () => broadcast('store', { listening: false }),
    keepListening: () => subscribers.size > 0,
  });

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
      res.write(frame('store', { listening: notifications.listening() }));
      const heartbeat = setInterval(() => res.write(': alive\n\n'), HEARTBEAT_MS);
      const leave = () => {
        clearInterval(heartbeat);
        subscribers.delete(subscriber);
      };
      req.once('close', leave);
      res.once('close', leave);
      void notifications.start();
    },
    async close() {
      for (const { res } of subscribers) res.end();
      subscribers.clear();
      await notifications.close();
    },
  };
}
