// How many server renders one instance runs at once (docs/architecture.md, "Limits"). A render
// holds its page's tree, catalogue answers and HTML in memory until it is sent, and Node hands
// every pipelined request to the server before the first answer goes out; without a cap, one
// client pipelining thousands of renders grows the process by hundreds of MB and everyone waits.
// Past the cap a request waits a little in a short line; past the line, or once it has waited
// too long, it gets no render at all and the browser renders the page instead.

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
   * cap, or waited too long). `wait: false`: a place now or none.
   */
  enter(options?: { wait?: boolean }): Promise<(() => void) | null>;
  readonly inFlight: number;
  readonly waiting: number;
}

export function createRenderGate({ maxInFlight, maxWaiting, maxWaitMs }: RenderGateOptions): RenderGate {
  let inFlight = 0;
  const line: Array<(release: (() => void) | null) => void> = [];

  const release = () => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      inFlight -= 1;
      const next = line.shift();
      if (next) {
        inFlight += 1;
        next(release());
      }
    };
  };

  return {
    enter({ wait = true } = {}) {
      if (inFlight < maxInFlight) {
        inFlight += 1;
        return Promise.resolve(release());
      }
      if (!wait || line.length >= maxWaiting) return Promise.resolve(null);
      return new Promise((resolve) => {
        const wake = (granted: (() => void) | null) => {
          clearTimeout(timer);
          resolve(granted);
        };
        const timer = setTimeout(() => {
          const at = line.indexOf(wake);
          if (at !== -1) line.splice(at, 1);
          resolve(null);
        }, maxWaitMs);
        line.push(wake);
      });
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return line.length;
    },
  };
}
