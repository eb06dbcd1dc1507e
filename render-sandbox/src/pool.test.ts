/**
 * @jest-environment node
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Release } from '@netnet/rollout';
import { AreaRenderError, createRenderPool, LOWEST_PRIORITY, type RenderPool } from './pool';

// The pool with real child processes that speak the render protocol: each stands in for a release
// whose "code" (the pool's fetchCode answer) says how it behaves. What the pool must do with a
// process that renders, hangs, exits or never loads is what these check.

const STAND_IN = `
const { Socket } = require('net');
const out = new Socket({ fd: 3, readable: false, writable: true });
const send = (message, done) => {
  const body = Buffer.from(typeof message === 'string' ? message : JSON.stringify(message));
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length);
  out.write(Buffer.concat([header, body]), done);
};
let behaviour;
let buffered = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffered = Buffer.concat([buffered, chunk]);
  while (buffered.length >= 4 && buffered.length >= 4 + buffered.readUInt32BE(0)) {
    const length = buffered.readUInt32BE(0);
    handle(JSON.parse(buffered.subarray(4, 4 + length).toString()));
    buffered = buffered.subarray(4 + length);
  }
});
process.stdin.on('end', () => process.exit(0));
function handle(message) {
  if (message.type === 'load') {
    behaviour = message.code;
    if (behaviour === 'fails-to-load') return send({ type: 'load-failed', message: 'it threw at import' }, () => process.exit(1));
    if (behaviour === 'never-loads') return;
    send({ type: 'ready' });
  } else if (message.type === 'render') {
    if (behaviour === 'loops') for (;;);
    if (behaviour === 'slow-once' && !globalThis.slowed) {
      globalThis.slowed = true;
      for (const until = Date.now() + 500; Date.now() < until; );
    }
    if (behaviour === 'exits') process.exit(3);
    if (behaviour === 'exits-second' && globalThis.rendered) process.exit(4);
    globalThis.rendered = true;
    if (behaviour === 'unknown-message') return send({ type: 'rendered-maybe', id: message.id });
    if (behaviour === 'wrong-shape') return send({ type: 'rendered', id: message.id, html: { toString: 1 }, catalogue: [], errors: 'x' });
    if (behaviour === 'not-json') return send('x\\n');
    if (behaviour === 'raw-garbage') return out.write('x\\n');
    if (behaviour === 'announces-a-huge-frame') return out.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2, 3]));
    if (behaviour === 'fetches') {
      return fetchOver(message.id, JSON.parse(message.location.search.slice(1)));
    }
    send({ type: 'rendered', id: message.id, html: '<p>' + message.location.pathname + ' by ' + process.pid + '</p>', catalogue: {}, errors: [], cutShort: false });
  } else if (message.type === 'fetched' || message.type === 'fetch-failed') {
    answers.get(message.id)(message);
  }
}
const answers = new Map();
let nextFetch = 0;
async function fetchOver(id, urls) {
  const got = await Promise.all(urls.map((url) => new Promise((resolve) => {
    nextFetch += 1;
    answers.set(nextFetch, resolve);
    send({ type: 'fetch', id: nextFetch, url });
  })));
  send({ type: 'rendered', id, html: JSON.stringify(got.map((answer) => answer.type === 'fetched' ? answer.status + ' ' + answer.body : answer.message)), catalogue: {}, errors: [], cutShort: false });
}
`;

let dir: string;
let script: string;
const pools: RenderPool[] = [];
jest.setTimeout(30_000);
const spawned: number[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'netnet-pool-test-'));
  script = join(dir, 'standIn.js');
  writeFileSync(script, STAND_IN);
});
afterEach(() => {
  for (const pool of pools.splice(0)) pool.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const release = (version: string): Release => ({ version, entry: `http://releases.test/remote-title/${version}/mf-manifest.json` });
const request = { module: 'MovieDetail', key: 'remote_title/MovieDetail', location: { pathname: '/title/604', search: '' }, auth: { status: 'anonymous' as const }, budgetMs: 100 };
const CONFIG = { catalogueUrl: 'http://catalogue.test', firebase: { apiKey: 'k', authDomain: 'a', projectId: 'p' }, authEmulatorUrl: null };

function poolOf(behaviours: Record<string, string>, options: Partial<Parameters<typeof createRenderPool>[0]> = {}) {
  const lines: string[] = [];
  const pool = createRenderPool({
    config: CONFIG,
    size: 1,
    graceMs: 200,
    stuckAfterMs: 600,
    // A process's start is slow on a loaded machine: only the test of a release that never loads waits less.
    loadTimeoutMs: 10_000,
    backoffMs: { first: 300, max: 1_000 },
    fetchCode: async (wanted) => behaviours[wanted.version] ?? 'renders',
    spawn: () => {
      const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
      spawned.push(child.pid!);
      return child;
    },
    log: (line) => lines.push(line),
    ...options,
  });
  pools.push(pool);
  return { pool, lines };
}

/** How many of a release's processes take renders. */
const readyOf = (pool: RenderPool, version: string) => pool.running().find((release) => release.version === version)?.ready ?? 0;

const faultOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'rendered',
    (error: unknown) => (error instanceof AreaRenderError ? error.fault : 'not an AreaRenderError'),
  );

describe('the render pool', () => {
  it('renders in a process of the release once it has loaded', async () => {
    const { pool } = poolOf({});
    await pool.warm('remote-title', release('1.0.0'));
    const result = await pool.render('remote-title', release('1.0.0'), request);
    expect(result.html).toMatch(/^<p>\/title\/604 by \d+<\/p>$/);
    expect(result.html).not.toContain(String(process.pid));
  });

  it('answers "starting" (not the release’s fault) before the release has loaded', async () => {
    const { pool } = poolOf({});
    await expect(faultOf(pool.render('remote-title', release('1.0.0'), request))).resolves.toBeNull();
  });

  it('falls back at the deadline, kills a process stuck past it, and starts another after a back-off', async () => {
    const { pool, lines } = poolOf({ '2.0.0': 'loops' }, { stuckAfterMs: 1_500 });
    await pool.warm('remote-title', release('2.0.0'));
    // Late: the area falls back at budget + grace (before the process is taken for stuck), not yet the release's fault.
    const late = pool.render('remote-title', release('2.0.0'), request);
    await expect(late).rejects.toThrow(/its render did not answer within 300 ms/);
    await expect(faultOf(late)).resolves.toBeNull();
    // Looping meanwhile, it gets only what CPU the other processes leave, and at most a fifth of a
    // core (stopped the rest of the time): measured as the CPU time it used, which a busy machine
    // only lowers, where a timer-sampled share of stopped time would swing with this test's own load.
    expect(getPriority(spawned.at(-1)!)).toBe(LOWEST_PRIORITY);
    expect(await cpuShare(spawned.at(-1)!, 400)).toBeLessThan(0.5);
    // Stuck: the process is killed from outside the looping process at budget + 1,500 ms.
    await waitFor(() => lines.some((line) => /remote-title 2\.0\.0: its render process did not answer a render within 1600 ms and was stopped \(1 in a row; new render processes in 300 ms\)/.test(line)));
    // While it waits to restart, renders fail at once; one failure is not yet the release's fault.
    await expect(faultOf(pool.render('remote-title', release('2.0.0'), request))).resolves.toBeNull();
    // After the back-off a fresh process is started and loaded.
    await waitFor(() => readyOf(pool, '2.0.0') === 1);
  });

  it('gives a process that answered late its usual priority back once it answers', async () => {
    // Throttled once late, its half second of work takes a few: it is not yet taken for stuck.
    const { pool } = poolOf({ '2.1.0': 'slow-once' }, { stuckAfterMs: 5_000 });
    await pool.warm('remote-title', release('2.1.0'));
    const pid = spawned.at(-1)!;
    await expect(pool.render('remote-title', release('2.1.0'), request)).rejects.toThrow(/did not answer within 300 ms/);
    expect(getPriority(pid)).toBe(LOWEST_PRIORITY);
    await waitFor(() => getPriority(pid) === 0);
    expect(await stoppedShare(pid, 200)).toBe(0);
    await expect(pool.render('remote-title', release('2.1.0'), request)).resolves.toMatchObject({ html: `<p>/title/604 by ${pid}</p>` });
  });

  it('doubles the wait with each failure in a row, up to its longest', async () => {
    const { pool, lines } = poolOf({ '3.0.0': 'exits' }, { backoffMs: { first: 100, max: 400 } });
    await pool.warm('remote-title', release('3.0.0'));
    for (let round = 0; round < 4; round += 1) {
      await waitFor(() => readyOf(pool, '3.0.0') === 1);
      await expect(faultOf(pool.render('remote-title', release('3.0.0'), request))).resolves.toMatch(/exited \(code 3\)/);
    }
    const waits = lines.map((line) => /new render processes in (\d+) ms/.exec(line)?.[1]).filter(Boolean);
    expect(waits).toEqual(['100', '200', '400', '400']);
    // Failing in a row, the release is at fault for the renders met while it waits too.
    await expect(faultOf(pool.render('remote-title', release('3.0.0'), request))).resolves.toMatch(/exited \(code 3\)/);
  });

  it('keeps doubling the wait for a release whose processes render a little, then fail, until one has rendered a while', async () => {
    const cycle = async (pool: RenderPool, version: string) => {
      for (let round = 0; round < 3; round += 1) {
        await waitFor(() => readyOf(pool, version) === 1);
        await expect(pool.render('remote-title', release(version), request)).resolves.toMatchObject({ errors: [] });
        await expect(faultOf(pool.render('remote-title', release(version), request))).resolves.toMatch(/exited \(code 4\)/);
      }
    };
    const waits = (lines: string[]) => lines.map((line) => /new render processes in (\d+) ms/.exec(line)?.[1]).filter(Boolean);
    const failing = poolOf({ '3.1.0': 'exits-second' }, { backoffMs: { first: 100, max: 800 } });
    await failing.pool.warm('remote-title', release('3.1.0'));
    await cycle(failing.pool, '3.1.0');
    expect(waits(failing.lines)).toEqual(['100', '200', '400']);
    // A process that renders at once counts as well when the release asks no time of it.
    const forgiving = poolOf({ '3.1.1': 'exits-second' }, { backoffMs: { first: 100, max: 800 }, healthyAfterMs: 0 });
    await forgiving.pool.warm('remote-title', release('3.1.1'));
    await cycle(forgiving.pool, '3.1.1');
    expect(waits(forgiving.lines)).toEqual(['100', '100', '100']);
  });

  it('takes only the renders in flight of a process that exits; the other process of the release keeps rendering', async () => {
    const { pool } = poolOf({}, { size: 2 });
    await pool.warm('remote-title', release('4.0.0'));
    await waitFor(() => readyOf(pool, '4.0.0') === 2);
    process.kill(spawned.at(-1)!, 'SIGKILL');
    await waitFor(() => readyOf(pool, '4.0.0') === 1);
    await expect(pool.render('remote-title', release('4.0.0'), request)).resolves.toMatchObject({ errors: [] });
  });

  it('counts a release that cannot load, or does not load in time, as failing', async () => {
    const { pool } = poolOf({ '5.0.0': 'fails-to-load' });
    await pool.warm('remote-title', release('5.0.0'));
    await expect(faultOf(pool.render('remote-title', release('5.0.0'), request))).resolves.toMatch(/its server build does not load: it threw at import/);
    const slow = poolOf({ '5.0.1': 'never-loads' }, { loadTimeoutMs: 2_000 }).pool;
    await slow.warm('remote-title', release('5.0.1'));
    // A load that times out may have met a busy machine: said, but not yet the release's fault.
    await expect(slow.render('remote-title', release('5.0.1'), request)).rejects.toThrow(/did not load the release within 2 s/);
  });

  it.each(['raw-garbage', 'not-json', 'announces-a-huge-frame', 'unknown-message', 'wrong-shape'])(
    'kills a process that breaks its channel (%s) and counts it against its release at once, the server unharmed',
    async (behaviour) => {
      const { pool, lines } = poolOf({ '7.0.0': behaviour });
      await pool.warm('remote-title', release('7.0.0'));
      const pid = spawned.at(-1)!;
      // Half a frame (raw-garbage) is seen when the process is taken for stuck; the rest at once.
      await expect(pool.render('remote-title', release('7.0.0'), request)).rejects.toThrow();
      await waitFor(() => !alive(pid));
      // Its fault beyond doubt: the renders met while it waits are its failures too.
      await expect(faultOf(pool.render('remote-title', release('7.0.0'), request))).resolves.toMatch(/^it broke its render channel/);
      expect(lines.some((line) => line.includes('broke its render channel'))).toBe(true);
    },
  );

  it('makes the catalogue calls a page makes for a process, and no other', async () => {
    const catalogue = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ path: req.url }));
    });
    await new Promise<void>((resolve) => catalogue.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(catalogue.address() as { port: number }).port}`;
    try {
      const { pool } = poolOf({ '8.0.0': 'fetches' }, { config: { ...CONFIG, catalogueUrl: base } });
      await pool.warm('remote-title', release('8.0.0'));
      const urls = [`${base}/3/movie/604?language=en-US`, `${base}/3/tv/5506/credits`, `${base}/metrics`, 'http://127.0.0.1:9099/emulator/v1/projects/demo-netnet/accounts', `${base}/3/movie/604/../../../metrics`];
      const result = await pool.render('remote-title', release('8.0.0'), { ...request, budgetMs: 2_000, location: { pathname: '/title/604', search: `?${JSON.stringify(urls)}` } });
      expect(JSON.parse(result.html)).toEqual([
        `200 ${JSON.stringify({ path: '/3/movie/604?language=en-US' })}`,
        `200 ${JSON.stringify({ path: '/3/tv/5506/credits' })}`,
        'refused: not a catalogue path pages read (/metrics)',
        'refused: not the catalogue',
        'refused: not a catalogue path pages read (/metrics)',
      ]);
    } finally {
      catalogue.close();
    }
  });

  it('stops the processes of a release that left the map', async () => {
    const { pool } = poolOf({});
    await pool.warm('remote-title', release('6.0.0'));
    const pid = spawned.at(-1)!;
    pool.keepOnly([]);
    await waitFor(() => !alive(pid));
    expect(pool.running()).toEqual([]);
  });
});

/** The share of samples over `ms` in which the process was stopped (state T in /proc). */
/** The CPU time (user + system) a process used over `ms`, as a share of one core. */
async function cpuShare(pid: number, ms: number): Promise<number> {
  // /proc/<pid>/stat's utime and stime, in clock ticks (100 a second on Linux).
  const ticks = () => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  const [before, start] = [ticks(), Date.now()];
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (ticks() - before) / 100 / ((Date.now() - start) / 1000);
}

async function stoppedShare(pid: number, ms: number): Promise<number> {
  let stopped = 0;
  let samples = 0;
  for (const until = Date.now() + ms; Date.now() < until; samples += 1) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) stopped += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return stopped / samples;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
