// The shell instances of `npm run start:cluster`, kept running as an orchestrator keeps containers
// (docs/deploy.md, "Instances"): each on its own loopback port, replaced when it dies, and replaced
// one at a time on a rolling restart — the old one drains while its successor loads its server
// builds, and the next goes only once the successor is ready and back in nginx's rotation.
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { withoutTsx, withTsx } from '../tsx.mjs';

// The shell's server as built (shell/server/bundle.mjs): plain JavaScript, no TypeScript loader.
const ENTRY = join(dirname(createRequire(import.meta.url).resolve('shell/package.json')), 'dist', 'server', 'main.cjs');
const READY_TIMEOUT_MS = 90_000;
/**
 * After a successor is ready: nginx leaves a peer that refused a connection out of rotation for
 * fail_timeout (1 s, ./nginxConfig.mjs), counted in whole seconds of its clock, so up
 * to 2 s after its last refusal. Stopping the next instance before that would leave nginx no
 * instance it is willing to try ("no live upstreams", a 502).
 */
const BACK_IN_ROTATION_MS = 2_500;

/**
 * @param {{ ports: number[], env?: (index: number) => Record<string, string>, log?: (line: string) => void,
 *   onChange?: () => void, entry?: string }} options
 *   env: per instance, laid over this process's environment. entry: the instance's script (a test's
 *   stand-in; the shell's by default).
 */
export function superviseInstances({ ports, env = () => ({}), log = console.log, onChange = () => {}, entry = ENTRY }) {
  let stopping = false;
  let rolling = null;
  let restarts = 0;
  const instances = ports.map((port, index) => ({ index, port, name: `shell-${index + 1}`, child: null, state: 'starting', startedAt: 0, crashes: 0 }));

  function spawnInstance(instance) {
    const child = fork(entry, [], {
      // The built instance needs no loader; a test's stand-in may be TypeScript-importing source.
      execArgv: entry.endsWith('.cjs') ? withoutTsx(process.execArgv) : withTsx(process.execArgv),
      env: { ...process.env, ...env(instance.index), PORT: String(instance.port), NETNET_INSTANCE_NAME: instance.name, NO_UPDATE_NOTIFIER: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const print = (chunk) =>
      chunk.toString().split('\n').filter(Boolean).forEach((line) => log(`[${instance.name}] ${line}`));
    child.stdout.on('data', print);
    child.stderr.on('data', print);
    Object.assign(instance, { child, state: 'starting', startedAt: Date.now() });
    child.on('message', (message) => {
      if (instance.child !== child || typeof message?.state !== 'string') return;
      instance.state = message.state;
      onChange();
    });
    child.on('exit', (code, signal) => {
      if (instance.child !== child) return; // a retired instance that finished draining
      instance.child = null;
      instance.state = 'stopped';
      onChange();
      if (stopping) return;
      // Died on its own (a crash, kill -9, out of memory): replaced, as an orchestrator would,
      // sooner if it had been up a while, later if it keeps dying at start.
      instance.crashes = Date.now() - instance.startedAt < 10_000 ? instance.crashes + 1 : 0;
      const delay = Math.min(5_000, 250 * 2 ** instance.crashes);
      log(`[cluster] ${instance.name} exited (${signal ?? `exit ${code}`}); starting a new one in ${delay} ms`);
      setTimeout(() => {
        if (!stopping && instance.child === null) spawnInstance(instance);
      }, delay).unref();
    });
    onChange();
    return child;
  }

  /** Resolves when `instance`'s current process says it is ready; rejects past the timeout or if it dies. */
  async function readyOf(instance, timeoutMs = READY_TIMEOUT_MS) {
    const deadline = Date.now() + timeoutMs;
    while (instance.state !== 'ready') {
      if (stopping) throw new Error('stopping');
      if (Date.now() > deadline) throw new Error(`${instance.name} was not ready within ${timeoutMs / 1000} s`);
      await sleep(50);
    }
  }

  /** Replaces one instance: the old one drains (it stops listening at once) while the new one starts. */
  async function replace(instance) {
    const old = instance.child;
    if (old) {
      instance.child = null;
      const stoppedListening = new Promise((resolve) => {
        old.on('message', (message) => message?.state === 'draining' && resolve());
        old.once('exit', resolve);
      });
      const drainStarted = Date.now();
      old.once('exit', (code, signal) => log(`[cluster] ${instance.name}'s old process (pid ${old.pid}) left after ${Date.now() - drainStarted} ms (${signal ?? `exit ${code}`})`));
      old.kill('SIGTERM');
      await Promise.race([stoppedListening, sleep(10_000)]);
    }
    const spawned = Date.now();
    spawnInstance(instance);
    await readyOf(instance);
    log(`[cluster] ${instance.name}'s successor (pid ${instance.child?.pid}) ready ${Date.now() - spawned} ms after it started`);
  }

  return {
    instances,
    /** Starts every instance; resolves when all are ready. */
    async start() {
      for (const instance of instances) spawnInstance(instance);
      await Promise.all(instances.map((instance) => readyOf(instance)));
    },
    /** Every instance replaced, one at a time; a second call while one runs returns the same promise. */
    rollingRestart() {
      if (rolling) return rolling;
      const began = Date.now();
      log(`[cluster] rolling restart of ${instances.length} instance(s)`);
      rolling = (async () => {
        for (const instance of instances) {
          await replace(instance);
          await sleep(BACK_IN_ROTATION_MS);
        }
        restarts += 1;
        log(`[cluster] rolling restart done in ${((Date.now() - began) / 1000).toFixed(1)} s`);
      })().finally(() => {
        rolling = null;
        onChange();
      });
      onChange();
      return rolling;
    },
    /** What the state file says (./start.mjs): who runs where. */
    snapshot() {
      return {
        rolling: rolling !== null,
        rollingRestarts: restarts,
        instances: instances.map(({ name, port, child, state }) => ({ name, port, pid: child?.pid ?? null, state })),
      };
    },
    /** Stops every instance: `drain` lets each finish (SIGTERM), otherwise at once (SIGINT). */
    async stop({ drain = false } = {}) {
      stopping = true;
      const children = instances.map((instance) => instance.child).filter(Boolean);
      await Promise.all(
        children.map(
          (child) =>
            new Promise((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', resolve);
              child.kill(drain ? 'SIGTERM' : 'SIGINT');
              setTimeout(() => {
                child.kill('SIGKILL');
                resolve();
              }, drain ? 30_000 : 3_000).unref();
            }),
        ),
      );
    },
  };
}
