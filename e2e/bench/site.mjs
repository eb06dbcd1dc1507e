// The production site for the benchmarks: built with the same buildIfNeeded() as `npm start`, then
// `node --import tsx site/start.mjs` in its own process group, so stopping it also stops the catalogue,
// the Auth emulator (Java) and everything else it spawned. The shell's server renders pages inside
// that start.mjs process; NETNET_SSR=off makes it serve the client-only page (the baseline).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { buildIfNeeded, root } from '../../scripts/build.mjs';
import { withTsx } from '../../site/tsx.mjs';

/** The site table (ports, origins, runtime documents) `npm start` serves by. */
export const site = createRequire(import.meta.url)('@netnet/site');
export const SITE = site.readSite().shellUrl;
const READY_URL = `${SITE}/config.json`;
const READY_LINE = /Netnet is ready on/;

async function answers(url) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

const STATE = /<script type="application\/json" id="netnet-state">([^<]*)<\/script>/;
const EMPTY_ROOT = /<div id="?root"?><\/div>/;

/**
 * What the HTML of a page says about how it was made: rendered on the server (content inside
 * #root and the state the browser hydrates from) or left to the browser; the state when there is one.
 */
export function howRendered(html) {
  const found = STATE.exec(html);
  let state = null;
  try {
    state = found ? JSON.parse(found[1]) : null;
  } catch {
    state = null;
  }
  const hasContent = /<div id="?root"?>/.test(html) && !EMPTY_ROOT.test(html);
  return { server: hasContent && state !== null, hasContent, state };
}

/** 'ssr' or 'client': how the site running now answers a visitor's `/`. */
export async function siteMode() {
  const response = await fetch(`${SITE}/`, { signal: AbortSignal.timeout(30_000) });
  return howRendered(await response.text()).server ? 'ssr' : 'client';
}

/**
 * Starts the site and returns { stop(), pid } (pid: the start.mjs process, which runs the shell's
 * server; null when reusing). A server already on :8080 is someone else's (another `npm start`, a
 * dev server…): measuring it would give figures for a build we did not make, so that is an error
 * unless `reuse` says it is wanted. `env` is laid over this process's environment (a value of
 * undefined removes the variable); `nodeArgs` go to node before site/start.mjs.
 */
export async function startSite({ reuse = false, log = console.log, env = {}, nodeArgs = [] } = {}) {
  if (await answers(READY_URL)) {
    if (reuse) {
      log(`Reusing the site already answering on ${SITE} (--reuse).`);
      return { stop: async () => {}, pid: null };
    }
    throw new Error(
      `Something already answers on ${SITE}; stop it first, or pass --reuse to measure that server as it is.`,
    );
  }

  await buildIfNeeded();

  const childEnv = { ...process.env, NO_UPDATE_NOTIFIER: '1', ...env };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  const child = spawn(process.execPath, [...withTsx(nodeArgs), 'site/start.mjs'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv,
  });
  const output = [];
  let exited = null;
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = signal ?? `exit ${code}`))));
  const ready = new Promise((resolve) => {
    const watch = (chunk) => {
      output.push(chunk.toString());
      if (READY_LINE.test(chunk.toString())) resolve();
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
  });

  let stopping = false;
  // A site that dies mid-run would show up as connection errors far from the cause: say why.
  exit.then(() => {
    if (stopping) return;
    // start.mjs exits 0 only when told to stop (SIGINT/SIGTERM): someone else stopped it.
    const why = exited === 'exit 0' ? 'exit 0: it was sent SIGINT/SIGTERM by another process' : exited;
    console.error(`The site stopped during the benchmark (${why}):\n${output.join('').split('\n').slice(-15).join('\n')}`);
  });

  const stop = async () => {
    stopping = true;
    if (exited) {
      // start.mjs is gone; make sure nothing it started outlives it.
      signalGroup(child.pid, 'SIGKILL');
      return;
    }
    // start.mjs stops its children on SIGINT; whatever is left after 5 s is killed.
    signalGroup(child.pid, 'SIGINT');
    const late = await Promise.race([exit.then(() => false), sleep(5000).then(() => true)]);
    await sleep(500);
    signalGroup(child.pid, 'SIGKILL');
    if (late) await exit;
  };

  const deadline = sleep(240_000, { unref: true }).then(() => 'timeout');
  const outcome = await Promise.race([ready.then(() => 'ready'), exit.then(() => 'exited'), deadline]);
  if (outcome !== 'ready' || !(await answers(READY_URL))) {
    await stop();
    const tail = output.join('').split('\n').slice(-20).join('\n');
    throw new Error(`The site did not start (${outcome === 'exited' ? `start.mjs ${exited}` : outcome}):\n${tail}`);
  }
  log(output.join('').split('\n').find((line) => READY_LINE.test(line)) ?? 'Netnet is ready');
  return { stop, pid: child.pid };
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

const sleep = (ms, { unref = false } = {}) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (unref) timer.unref();
  });

/**
 * Keeps hold of the site a benchmark started so that it stops whatever happens: Ctrl-C (which
 * reaches this process, not the site's own process group), a crash, or the end of the run. The
 * ports are fixed, so a site left running would hold them.
 */
export function keepSite(name) {
  let stop = async () => {};
  let stopping = false;
  const exit = async (code) => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(code);
  };
  process.on('SIGINT', () => exit(130));
  process.on('SIGTERM', () => exit(143));
  const crash = (error) => {
    console.error(`${name} crashed: ${error instanceof Error ? error.stack : error}`);
    exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  return {
    /** The site startSite answered; it is stopped on exit. */
    hold(started) {
      stop = started.stop;
      return started;
    },
    /** Stops the site now (before the next one starts, or to make it write its profile). */
    async stopNow() {
      const stopping = stop;
      stop = async () => {};
      await stopping();
    },
    /** Stops the site, then the process. */
    exit,
  };
}
