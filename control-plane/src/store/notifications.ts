// What the store announces (NOTIFY on a channel, by the statements of rollouts.ts, releases.ts and
// qaTokens.ts), heard on one connection of its own. A lost connection is made again a second
// later; whoever listens is told both when it is lost and when it listens again, because an
// announcement made meanwhile was never heard and they must read afresh.
import pg from 'pg';

export interface StoreNotifications {
  listening(): boolean;
  close(): Promise<void>;
}

export interface NotificationHandlers {
  /** Names the connection in pg_stat_activity. */
  name: string;
  channels: string[];
  onNotification(channel: string, payload: string): void;
  /** Every channel is listened to (first time, or again after a loss). */
  onListening?(): void | Promise<void>;
  onLost?(): void;
  /** Asked after a loss: false leaves the connection down until start() is called again. */
  keepListening?(): boolean;
}

/** Listens once start() is called; start() again while listening or connecting changes nothing. */
export function storeNotifications(config: pg.ClientConfig, handlers: NotificationHandlers): StoreNotifications & { start(): Promise<void> } {
  const { name, channels, onNotification, onListening = () => {}, onLost = () => {}, keepListening = () => true } = handlers;
  let listener: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let listening = false;
  let closed = false;

  async function listen() {
    if (closed || listener) return;
    const client = new pg.Client({ ...config, connectionTimeoutMillis: 3_000, keepAlive: true, application_name: name });
    listener = client;
    const lost = () => {
      if (listener !== client) return;
      listener = null;
      listening = false;
      client.end().catch(() => {});
      onLost();
      if (!closed && keepListening()) setTimeout(() => void start(), 1_000).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', ({ channel, payload = '' }) => onNotification(channel, payload));
    try {
      await client.connect();
      for (const channel of channels) await client.query(`LISTEN ${channel}`);
      listening = true;
      await onListening();
    } catch {
      lost();
    }
  }

  function start(): Promise<void> {
    connecting ??= listen().finally(() => {
      connecting = null;
    });
    return connecting;
  }

  return {
    start,
    listening: () => listening && connecting === null,
    async close() {
      closed = true;
      const client = listener;
      listener = null;
      listening = false;
      await client?.end().catch(() => {});
    },
  };
}
