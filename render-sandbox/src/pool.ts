import type { ChildProcess } from 'node:child_process';
import { availableParallelism, setPriority } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { pageList, type RemoteName } from '@netnet/shared/pages';
import type { Release } from '@netnet/rollout';
import { createCatalogueGate, type CatalogueGate } from './catalogueGate.ts';
import { encodeFrame, FrameReader } from './frames.ts';
import { processTree } from './launcher.ts';
import { MAX_FROM_WORKER_BYTES, readMessage, type AreaAuth, type FetchMessage, type RenderConfig, type RenderMessage, type ToWorker } from './protocol.ts';
import { browserBaseOf, fetchReleaseCode, serverEntryOf } from './releaseCode.ts';

// The render processes of the releases members get (docs/sandbox.md):
// a few per release, started before they take a render, each render given a deadline from here.
// A process that misses it is killed; one that dies takes only its own renders in flight; either
// way the area falls back (to stable, else to the browser) and the release waits a while, longer
// each time, before new processes are started for it. A process that writes anything but the
// protocol's frames into its channel is killed the same way: nothing it sends can throw here.

/** An area's render as its release's process gave it. */
export interface RenderResult {
  html: string;
  /** The catalogue answers the render used, by URL. */
  catalogue: Record<string, unknown>;
  /** What the page threw while rendering (the parts it hit are left to the browser). */
  errors: unknown[];
  /** The render had to be cut short. */
  cutShort: boolean;
}

export interface AreaRequest {
  module: string;
  key: string;
  location: { pathname: string; search: string; state?: unknown };
  auth: AreaAuth;
  budgetMs: number;
}

/** A render the release's processes could not give: `fault` is the release's own failure, null for slowness. */
export class AreaRenderError extends Error {
  constructor(
    message: string,
    readonly fault: string | null,
  ) {
    super(message);
  }
}

export interface RenderPool {
  /** The area rendered by `release`'s processes; rejects with AreaRenderError. */
  render(remote: RemoteName, release: Release, request: AreaRequest): Promise<RenderResult>;
  /** Starts `release`'s processes and waits until they take renders (or failed to). */
  warm(remote: RemoteName, release: Release): Promise<void>;
  /** A page of `release` that threw is not asked again for a while. */
  pageFailed(release: Release, module: string, fault: string | null): void;
  /** Stops the processes of releases not in `releases`. */
  keepOnly(releases: readonly Release[]): void;
  /** How many processes of each release take renders now (for the instance's /metrics). */
  running(): { remote: RemoteName; version: string; ready: number }[];
  close(): void;
}

/** Starts one render process of `remote` (launcher.ts in production; a plain child in tests), its channel on stdin and descriptor 3. */
export type Spawn = (remote: RemoteName) => ChildProcess;

export interface PoolOptions {
  spawn: Spawn;
  config: RenderConfig;
  /** Processes per release. */
  size?: number;
  /** How long a process may take to load its release. */
  loadTimeoutMs?: number;
  /** How long past its budget a render may take before its area falls back. */
  graceMs?: number;
  /** How long past its budget a render may go unanswered before its process is taken for stuck and killed. */
  stuckAfterMs?: number;
  /** First and longest wait before a failing release gets new processes. */
  backoffMs?: { first: number; max: number };
  /** How long a process must have taken renders before its renders say the release is well again. */
  healthyAfterMs?: number;
  fetchTimeoutMs?: number;
  fetchCode?: typeof fetchReleaseCode;
  /**
   * What fetchCode fetches a server build with (default the global fetch): the shell's server
   * hands its own, which reads its releases from the store rather than asking the releases' origin.
   */
  fetchFile?: typeof fetch;
  /** How render processes reach the catalogue (default: the config's catalogue, through this server). */
  catalogue?: CatalogueGate;
  log?: (line: string) => void;
  now?: () => number;
}

/**
 * One per release for every two cores (up to four): a render process's renders wait for the
 * catalogue without blocking each other, so one keeps a core busy while the shell's server uses
 * the other for its own part of each page (routing, compressing, sending).
 */
export const PROCESSES_PER_RELEASE = Math.max(1, Math.min(4, Math.floor(availableParallelism() / 2)));
/**
 * A render's deadline is its budget plus this: renderArea cuts its own render short 200 ms past
 * the budget, so an answer later than that is not waited for; the area falls back.
 */
export const DEADLINE_GRACE_MS = 400;
/**
 * A process that has not answered a render this long past its budget is stuck (a loop, a
 * collector thrashing at its heap limit), not merely busy: it is killed and replaced. Longer than
 * the deadline, so a machine that is only slow for a moment costs late renders, not processes.
 */
export const STUCK_AFTER_MS = 5_000;
/**
 * How long a process may take from its start to taking renders (loading the release and one warm-up
 * render per page): seconds on a quiet machine, many more on a saturated one; a build that hangs at
 * import is stopped at the end of it. Renders fall back meanwhile, so waiting costs no member.
 */
export const LOAD_TIMEOUT_MS = 30_000;
/**
 * A release's failures in a row end only when one of its processes has rendered for this long:
 * a build that renders a few pages and then loops or exits would otherwise start the waits over
 * with every new process, and spend a core on starting processes.
 */
export const HEALTHY_AFTER_MS = 60_000;
/** The niceness of a process whose render went late (the lowest there is). */
export const LOWEST_PRIORITY = 19;
/**
 * A process whose render went late runs `runMs` of every `periodMs` (stopped with SIGSTOP the
 * rest) until it answers: even at the lowest priority a loop takes what CPU is idle, and on a
 * small machine that is time the other areas' processes wait to be woken on.
 */
export const LATE_THROTTLE = { periodMs: 100, runMs: 20 };
/** A page of a release that threw is not asked again for this long. */
export const PAGE_RETRY_AFTER_MS = 30_000;
/** Lines a release's processes may log per minute; past it they are counted, not written. */
const LOG_LINES_PER_MINUTE = 30;
/**
 * Catalogue calls a process may make: this many for loading (its warm-up renders), and this many
 * more for each render it is given; a page makes a handful. Past it, calls fail as a network would.
 */
export const CATALOGUE_CALLS = { load: 64, perRender: 24 };
/** Catalogue calls one process may have in flight at once. */
const CATALOGUE_CALLS_IN_FLIGHT = 16;
/** How long a catalogue call made for a process's warm-up may take (its warm-up renders wait 1 s). */
const WARM_UP_CALL_MS = 2_000;

interface Worker {
  child: ChildProcess;
  /** The process and its sandbox's processes outside their namespace: what a throttle signals. */
  pids: number[];
  ready: boolean;
  /** When it was ready to take renders. */
  readyAt: number;
  /** Running at the lowest CPU priority, and throttled, since a render of its went late. */
  lowered: boolean;
  throttle?: NodeJS.Timeout;
  inFlight: Map<number, { resolve(result: RenderResult): void; reject(error: AreaRenderError): void; timers: NodeJS.Timeout[]; deadlineAt: number }>;
  /** Catalogue calls it may still make, and how many it has in flight. */
  calls: { left: number; inFlight: number };
  send(message: ToWorker): void;
  /** Kills the process; its renders in flight fail with `fault`. */
  stop(fault: string): void;
  /** Kills a process that stopped answering: its release's fault beyond doubt when it left half a frame in its channel. */
  stuck(fault: string): void;
}

interface ReleasePool {
  remote: RemoteName;
  release: Release;
  workers: Set<Worker>;
  code: Promise<string> | null;
  /** Failures in a row: each doubles the wait before new processes. */
  failures: number;
  /** No new process before this time. */
  restartAt: number;
  restartTimer?: NodeJS.Timeout;
  lastFault: string | null;
  /** The last failure was the release's own beyond doubt (it said it does not load), not a deadline or a crash a busy machine may share. */
  certain: boolean;
  /** Resolves when a process first says it is ready (or the release failed to start). */
  started: Promise<void>;
  markStarted(): void;
  logged: { minute: number; lines: number; dropped: number };
  closed: boolean;
}

/** What a line of a release's own output becomes in the server's log: one line, quoted, short. */
export const quoteLine = (line: string): string => JSON.stringify(line.length > 300 ? `${line.slice(0, 300)}…` : line);

export function createRenderPool({
  spawn,
  config,
  size = PROCESSES_PER_RELEASE,
  loadTimeoutMs = LOAD_TIMEOUT_MS,
  graceMs = DEADLINE_GRACE_MS,
  stuckAfterMs = STUCK_AFTER_MS,
  backoffMs = { first: 1_000, max: 60_000 },
  healthyAfterMs = HEALTHY_AFTER_MS,
  fetchTimeoutMs = 10_000,
  fetchCode = fetchReleaseCode,
  fetchFile = fetch,
  catalogue = createCatalogueGate({ catalogueUrl: config.catalogueUrl }),
  log = (line) => console.warn(`[render] ${line}`),
  now = Date.now,
}: PoolOptions): RenderPool {
  const pools = new Map<string, ReleasePool>();
  const failedPages = new Map<string, { at: number; fault: string | null }>();
  let nextId = 0;

  const label = (pool: ReleasePool) => `${pool.remote} ${pool.release.version}`;

  function poolFor(remote: RemoteName, release: Release): ReleasePool {
    const entry = serverEntryOf(release);
    let pool = pools.get(entry);
    if (!pool) {
      let markStarted = () => {};
      const started = new Promise<void>((resolve) => (markStarted = resolve));
      pool = { remote, release, workers: new Set(), code: null, failures: 0, restartAt: 0, lastFault: null, certain: false, started, markStarted, logged: { minute: 0, lines: 0, dropped: 0 }, closed: false };
      pools.set(entry, pool);
      fill(pool);
    }
    return pool;
  }

  function fill(pool: ReleasePool): void {
    if (pool.closed) return;
    const wait = pool.restartAt - now();
    if (wait > 0) {
      if (!pool.restartTimer) {
        pool.restartTimer = setTimeout(() => {
          pool.restartTimer = undefined;
          fill(pool);
        }, wait);
        pool.restartTimer.unref();
      }
      return;
    }
    for (let count = pool.workers.size; count < size && pool.restartAt <= now(); count += 1) startWorker(pool);
  }

  function failed(pool: ReleasePool, fault: string, certain = false): void {
    pool.lastFault = fault;
    pool.certain = certain;
    pool.failures += 1;
    const wait = Math.min(backoffMs.max, backoffMs.first * 2 ** (pool.failures - 1));
    pool.restartAt = now() + wait;
    pool.markStarted();
    log(`${label(pool)}: ${fault} (${pool.failures} in a row; new render processes in ${wait} ms)`);
  }

  function output(pool: ReleasePool, chunk: Buffer): void {
    const minute = Math.floor(now() / 60_000);
    if (pool.logged.minute !== minute) {
      if (pool.logged.dropped > 0) log(`${label(pool)} wrote ${pool.logged.dropped} more line(s) last minute, not shown.`);
      pool.logged = { minute, lines: 0, dropped: 0 };
    }
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      if (pool.logged.lines >= LOG_LINES_PER_MINUTE) pool.logged.dropped += 1;
      else {
        pool.logged.lines += 1;
        log(`${label(pool)} says ${quoteLine(line)}`);
      }
    }
  }

  function startWorker(pool: ReleasePool): void {
    pool.code ??= fetchCode(pool.release, fetchTimeoutMs, fetchFile);
    const code = pool.code;
    let child: ChildProcess;
    try {
      child = spawn(pool.remote);
    } catch (error) {
      failed(pool, `its render process could not start (${error instanceof Error ? error.message : error})`);
      return;
    }
    const toChild = child.stdio[0] as Writable | null;
    const reader = new FrameReader(MAX_FROM_WORKER_BYTES);
    const fromChild = child.stdio[3] as Readable | null | undefined;
    const worker: Worker = {
      child,
      pids: [],
      ready: false,
      readyAt: 0,
      lowered: false,
      inFlight: new Map(),
      calls: { left: CATALOGUE_CALLS.load, inFlight: 0 },
      send: (message) => void toChild?.write(encodeFrame(message)),
      stop: (fault) => end(fault),
      stuck: (fault) => (reader.midFrame ? end('it broke its render channel (half a frame, then nothing)', true) : end(fault)),
    };
    pool.workers.add(worker);
    child.stdout?.on('data', (chunk: Buffer) => output(pool, chunk));
    child.stderr?.on('data', (chunk: Buffer) => output(pool, chunk));
    let gone = false;
    const end = (fault: string, certain = false) => {
      if (gone) return;
      gone = true;
      clearTimeout(loading);
      clearInterval(worker.throttle);
      pool.workers.delete(worker);
      child.kill('SIGKILL');
      fromChild?.destroy();
      for (const [, render] of worker.inFlight) {
        render.timers.forEach(clearTimeout);
        render.reject(new AreaRenderError(`${label(pool)}: ${fault}`, fault));
      }
      worker.inFlight.clear();
      if (pool.closed) return;
      failed(pool, fault, certain);
      fill(pool);
    };
    const loading = setTimeout(() => end(`its render process did not load the release within ${loadTimeoutMs / 1000} s`), loadTimeoutMs);
    child.on('error', (error) => end(`its render process failed (${error.message})`));
    child.on('exit', (codeOrNull, signal) => end(`its render process exited (${signal ?? `code ${codeOrNull}`})`));
    // A pipe closed under a write (the process died) is its exit's business, never this server's crash.
    toChild?.on('error', () => end('its render process closed its channel'));
    if (!toChild || !fromChild) {
      end('its render process has no channel');
      return;
    }
    fromChild.on('error', () => end('its render process closed its channel'));
    // Anything but the protocol's frames, each of the protocol's shape, is the release breaking its
    // channel: its fault beyond doubt, so its renders count as failed sessions at once.
    fromChild.on('data', (chunk: Buffer) => {
      const { messages, broken } = reader.push(chunk);
      for (const raw of messages) {
        if (gone) return;
        const message = readMessage(raw);
        if (message === null) return end('it broke its render channel (a message that is not the protocol\'s)', true);
        receive(message);
      }
      if (broken) end(`it broke its render channel (${broken})`, true);
    });
    const receive = (message: NonNullable<ReturnType<typeof readMessage>>) => {
      if (message.type === 'ready') {
        clearTimeout(loading);
        worker.ready = true;
        worker.readyAt = now();
        if (child.pid !== undefined) worker.pids = processTree(child.pid);
        pool.markStarted();
      } else if (message.type === 'load-failed') {
        end(`its server build does not load: ${message.message}`, true);
      } else if (message.type === 'fetch') {
        callCatalogue(worker, message);
      } else {
        const render = worker.inFlight.get(message.id);
        if (!render) return;
        worker.inFlight.delete(message.id);
        render.timers.forEach(clearTimeout);
        // A process that has rendered a while is a healthy one: the release's next failure starts the waits over.
        if (now() - worker.readyAt >= healthyAfterMs) pool.failures = 0;
        if (worker.lowered && worker.inFlight.size === 0) prioritize(worker, 'usual');
        if (message.type === 'rendered') {
          render.resolve({ html: message.html, catalogue: message.catalogue, errors: message.errors, cutShort: message.cutShort });
        } else {
          render.reject(new AreaRenderError(`${label(pool)}: ${message.message}`, message.message));
        }
      }
    };
    code.then(
      (source) => {
        if (gone) return;
        const modules = pageList.filter((page) => page.remote === pool.remote).map((page) => page.module);
        worker.send({ type: 'load', remote: pool.remote, entry: serverEntryOf(pool.release), publicPath: browserBaseOf(pool.release), code: source, modules, config });
      },
      (error: unknown) => {
        // The code did not arrive: the next try fetches it again.
        pool.code = null;
        end(`its server build could not be had: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  /**
   * A catalogue call the process asked for, made here within its caps: a page's renders in flight
   * give it its time (a call no render waits for is not made), and each render a few calls.
   */
  function callCatalogue(worker: Worker, { id, url }: FetchMessage): void {
    const refuse = (message: string) => worker.send({ type: 'fetch-failed', id, message });
    const deadlineAt = worker.ready ? Math.max(0, ...[...worker.inFlight.values()].map((render) => render.deadlineAt)) : now() + WARM_UP_CALL_MS;
    if (deadlineAt <= now()) return refuse('no render is waiting for it');
    if (worker.calls.left <= 0) return refuse('over its catalogue calls for the renders it was given');
    if (worker.calls.inFlight >= CATALOGUE_CALLS_IN_FLIGHT) return refuse('too many catalogue calls at once');
    worker.calls.left -= 1;
    worker.calls.inFlight += 1;
    catalogue.call(url, deadlineAt - now()).then(
      (answer) => worker.send({ type: 'fetched', id, ...answer }),
      (error: unknown) => refuse(error instanceof Error ? error.message : String(error)),
    ).finally(() => (worker.calls.inFlight -= 1));
  }

  /**
   * A process whose render went late runs at the lowest CPU priority, a fifth of the time, until it
   * answers, so a release spinning in a loop slows the other areas' renders little in the seconds
   * before it is taken for stuck. Raising its priority back needs the right to (root, as the
   * sandbox runs); without it the process stays low, which costs only that release.
   */
  function prioritize(worker: Worker, to: 'lowest' | 'usual'): void {
    const pids = worker.pids;
    if (pids.length === 0 || worker.lowered === (to === 'lowest')) return;
    worker.lowered = to === 'lowest';
    clearInterval(worker.throttle);
    worker.throttle = undefined;
    signal(pids, to === 'lowest' ? 'SIGSTOP' : 'SIGCONT');
    for (const pid of pids) {
      try {
        setPriority(pid, to === 'lowest' ? LOWEST_PRIORITY : 0);
      } catch {
        // Gone meanwhile, or not ours to raise.
      }
    }
    if (to === 'usual') return;
    worker.throttle = setInterval(() => {
      signal(pids, 'SIGCONT');
      setTimeout(() => worker.lowered && signal(pids, 'SIGSTOP'), LATE_THROTTLE.runMs).unref();
    }, LATE_THROTTLE.periodMs);
    worker.throttle.unref();
  }

  function signal(pids: number[], name: 'SIGSTOP' | 'SIGCONT'): void {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // Gone meanwhile.
      }
    }
  }

  /** The ready process with the fewest renders in flight. */
  function pick(pool: ReleasePool): Worker | undefined {
    let best: Worker | undefined;
    for (const worker of pool.workers) if (worker.ready && (!best || worker.inFlight.size < best.inFlight.size)) best = worker;
    return best;
  }

  return {
    render(remote, release, request) {
      const pool = poolFor(remote, release);
      const pageFault = failedPages.get(`${serverEntryOf(release)}#${request.module}`);
      if (pageFault && now() - pageFault.at < PAGE_RETRY_AFTER_MS) {
        return Promise.reject(new AreaRenderError(`${label(pool)}: this page failed to render a moment ago.`, pageFault.fault));
      }
      const worker = pick(pool);
      if (!worker) {
        // Starting (not the release's fault), or waiting after failures: its fault when it said it
        // does not load, or has failed twice in a row (one missed deadline or crash may have met a
        // busy machine; it costs only the renders that process had in flight).
        const waiting = pool.restartAt > now();
        const fault = waiting && (pool.certain || pool.failures >= 2) ? pool.lastFault : null;
        return Promise.reject(new AreaRenderError(`${label(pool)}: ${waiting ? `its render processes failed (${pool.lastFault})` : 'its render processes are starting'}.`, fault));
      }
      const id = (nextId += 1);
      const deadlineMs = request.budgetMs + graceMs;
      const stuckMs = request.budgetMs + stuckAfterMs;
      return new Promise<RenderResult>((resolve, reject) => {
        // Late is not yet the release's fault (a busy machine is slow for everyone); stuck is.
        const late = setTimeout(() => {
          reject(new AreaRenderError(`${label(pool)}: its render did not answer within ${deadlineMs} ms.`, null));
          // Late is most likely busy in a loop: until it answers, it gets a fifth of the CPU the others leave.
          prioritize(worker, 'lowest');
        }, deadlineMs);
        const stuck = setTimeout(() => worker.stuck(`its render process did not answer a render within ${stuckMs} ms and was stopped`), stuckMs);
        worker.inFlight.set(id, { resolve, reject, timers: [late, stuck], deadlineAt: now() + deadlineMs });
        // Calls not used by earlier renders do not pile up: at most a load's and a render's each in flight.
        worker.calls.left = Math.min(worker.calls.left + CATALOGUE_CALLS.perRender, CATALOGUE_CALLS.load + CATALOGUE_CALLS.perRender * worker.inFlight.size);
        const message: RenderMessage = { type: 'render', id, ...request };
        worker.send(message);
      });
    },
    // The pool's own promise, not a new one: the server calls this for every release on every page.
    warm: (remote, release) => poolFor(remote, release).started,
    pageFailed(release, module, fault) {
      failedPages.set(`${serverEntryOf(release)}#${module}`, { at: now(), fault });
    },
    keepOnly(releases) {
      const kept = new Set(releases.map(serverEntryOf));
      for (const [entry, pool] of pools) {
        if (kept.has(entry)) continue;
        stop(pool);
        pools.delete(entry);
      }
      for (const key of failedPages.keys()) if (!kept.has(key.slice(0, key.lastIndexOf('#')))) failedPages.delete(key);
    },
    running: () => [...pools.values()].map((pool) => ({ remote: pool.remote, version: pool.release.version, ready: [...pool.workers].filter((worker) => worker.ready).length })),
    close() {
      for (const pool of pools.values()) stop(pool);
      pools.clear();
    },
  };

  function stop(pool: ReleasePool): void {
    pool.closed = true;
    clearTimeout(pool.restartTimer);
    for (const worker of pool.workers) worker.stop('its release left the map');
    pool.markStarted();
  }
}
