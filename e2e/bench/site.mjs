// The production site for the benchmark: built with the same buildIfNeeded() as `npm start`, then
// `node scripts/start.mjs` in its own process group, so stopping it also stops the catalogue,
// the Auth emulator (Java) and everything else it spawned.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { buildIfNeeded, root } from '../../scripts/build.mjs';

/** The site table (ports, origins, runtime documents) `npm start` serves by. */
export const site = createRequire(import.meta.url)('../../scripts/site.cjs');
export const SITE = site.siteUrl();
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

/**
 * Starts the site and returns a stop() function. A server already on :8080 is someone else's
 * (another `npm start`, a dev server…): measuring it would give figures for a build we did not
 * make, so that is an error unless `reuse` says it is wanted.
 */
export async function startSite({ reuse = false, log = console.log } = {}) {
  if (await answers(READY_URL)) {
    if (reuse) {
      log(`Reusing the site already answering on ${SITE} (--reuse).`);
      return async () => {};
    }
    throw new Error(
      `Something already answers on ${SITE}; stop it first, or pass --reuse to measure that server as it is.`,
    );
  }

  await buildIfNeeded();

  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1' },
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
  return stop;
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
