// How many server renders one instance runs at once (docs/limits.md). A render
// holds its page's tree, catalogue answers and HTML in memory until it is sent, and Node hands
// every pipelined request to the server before the first answer goes out; without a cap, one
// client pipelining thousands of renders grows the process by hundreds of MB and everyone waits.
// Past the cap a request waits a little in a short line; past the line, or once it has waited
// too long, it gets no render at all and the browser renders the page instead.
//
// The line is fair between clients: a free place goes to the waiting client whose last render
// started longest ago (oldest request first within a client), and when the line is full a
// newcomer takes the place of the newest request of the client holding the most places, if that
// client holds more than the newcomer's own. One client alone still has the whole line (a
// benchmark from one address); a client flooding it cannot keep another's request waiting behind
// all of its own.

export interface RenderGateOptions {
  /** Renders running at once. */
  maxInFlight: number;
  /** Requests waiting for a render at once. */
  maxWaiting: number;
  /** How long a request may wait before it is answered without a render. */
  maxWaitMs: number;
}

export interface RenderGate {
  /**
   * A release function once the render may start; null when it should not be rendered (over the
   * cap, or waited too long, or its place in the line given to another client). `client`: who
   * asks, for the line's turns.
   */
  enter(options?: { client?: string }): Promise<(() => void) | null>;
  readonly inFlight: number;
  readonly waiting: number;
}

interface Waiter {
  client: string;
  settle(release: (() => void) | null): void;
}

/** Clients whose last start is remembered: far more than ever wait at once. */
const MAX_REMEMBERED = 10_000;

export function createRenderGate({ maxInFlight, maxWaiting, maxWaitMs }: RenderGateOptions): RenderGate {
  let inFlight = 0;
  let waiting = 0;
  /** Each waiting client's requests, oldest first. */
  const line = new Map<string, Waiter[]>();
  /** When each client last had a render start (a count of starts), least recent first; bounded. */
  const lastStart = new Map<string, number>();
  let starts = 0;
  const started = (client: string) => {
    lastStart.delete(client);
    lastStart.set(client, (starts += 1));
    if (lastStart.size > MAX_REMEMBERED) lastStart.delete(lastStart.keys().next().value!);
  };

  const leave = (waiter: Waiter) => {
    const own = line.get(waiter.client);
    const at = own?.indexOf(waiter) ?? -1;
    if (!own || at === -1) return false;
    own.splice(at, 1);
    if (own.length === 0) line.delete(waiter.client);
    waiting -= 1;
    return true;
  };

  const release = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      inFlight -= 1;
      let next: Waiter | undefined;
      for (const [client, own] of line) {
        if (!next || (lastStart.get(client) ?? 0) < (lastStart.get(next.client) ?? 0)) next = own[0];
      }
      if (!next) return;
      leave(next);
      inFlight += 1;
      started(next.client);
      next.settle(release());
    };
  };

  /** Makes room for `client` by turning away the newest request of the client with the most places, if it has more. */
  const makeRoom = (client: string) => {
    let biggest: Waiter[] | undefined;
    for (const own of line.values()) if (!biggest || own.length > biggest.length) biggest = own;
    if (!biggest || biggest.length <= (line.get(client)?.length ?? 0) + 1) return false;
    const evicted = biggest[biggest.length - 1]!;
    leave(evicted);
    evicted.settle(null);
    return true;
  };

  return {
    enter({ client = '' } = {}) {
      if (inFlight < maxInFlight) {
        inFlight += 1;
        started(client);
        return Promise.resolve(release());
      }
      if (waiting >= maxWaiting && !makeRoom(client)) return Promise.resolve(null);
      return new Promise((resolve) => {
        const waiter: Waiter = {
          client,
          settle(granted) {
            clearTimeout(timer);
            resolve(granted);
          },
        };
        const timer = setTimeout(() => {
          if (leave(waiter)) resolve(null);
        }, maxWaitMs);
        const own = line.get(client);
        if (own) own.push(waiter);
        else line.set(client, [waiter]);
        waiting += 1;
      });
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiting;
    },
  };
}
