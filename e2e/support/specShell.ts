import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { commandArgs } from './deployCli';
import { test as base } from './test';

// A shell of the spec's own, served exactly as `npm start` serves the shell (shell/server/shellServer.ts)
// but for a rollout environment of the spec's own. A page rendered by the server comes with the
// remote map and releases the server used (docs/architecture.md#server-rendering), so a spec's
// rollout reaches its pages only through a server that reads it; every other spec keeps the
// usual site. It runs in the spec's worker, on a free port, beside the rest of the running site;
// its guard, when asked for, is the process `npm start` runs (`npm run rollout -- guard`) for that
// environment.

interface GuardOptions {
  stages?: number[];
  intervalMs?: number;
}

interface ShellServerModule {
  serveShell(options: { port: number; environment: string; logger: unknown; env: NodeJS.ProcessEnv }): Promise<Server>;
}

interface ServerKitModule {
  createLogger(service: string, level: string, destination: { write(line: string): void }): unknown;
}

export interface SpecShell {
  /** The origin its pages are served from. */
  url: string;
  /** The messages the shell's server logs while `during` runs (which sees them as they come). */
  logged(during: (sofar: readonly string[]) => Promise<void>): Promise<string[]>;
  close(): Promise<void>;
}

const root = join(__dirname, '..', '..');

/** The guard process of `environment`, its lines printed as `npm start` prints them. */
function startGuard(environment: string, { stages, intervalMs }: GuardOptions): ChildProcess {
  const flags = [...(stages ? ['--stages', stages.join(',')] : []), ...(intervalMs ? ['--interval', String(intervalMs / 1000)] : [])];
  const guard = spawn(process.execPath, commandArgs('rollout', 'guard', '--env', environment, ...flags), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const print = (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach((line) => console.log(`[guard] ${line}`));
  guard.stdout!.on('data', print);
  guard.stderr!.on('data', print);
  return guard;
}

async function stopGuard(guard: ChildProcess): Promise<void> {
  if (guard.exitCode !== null || guard.signalCode !== null) return;
  const exited = once(guard, 'exit');
  // SIGTERM: it gives its lease up and says so; a guard stuck past 5 s is killed.
  guard.kill('SIGTERM');
  const timer = setTimeout(() => guard.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** `guard`: run the release guard on the environment's canaries, as `npm start` does. */
export async function startShell(environment: string, { guard = false }: { guard?: false | GuardOptions } = {}): Promise<SpecShell> {
  const { serveShell } = (await import(pathToFileURL(join(root, 'shell', 'server', 'shellServer.ts')).href)) as ShellServerModule;
  const { createLogger } = (await import(pathToFileURL(join(root, 'server-kit', 'src', 'index.ts')).href)) as ServerKitModule;
  // Its log lines are printed as they come, and handed to whoever is reading them.
  const readers = new Set<(message: string) => void>();
  const logger = createLogger('shell', process.env.NETNET_LOG_LEVEL || 'info', {
    write(line: string) {
      process.stdout.write(line);
      const { msg } = JSON.parse(line) as { msg?: string };
      if (msg) for (const read of readers) read(msg);
    },
  });
  // The shell's config from the suite's environment, as `npm start` reads its shell's.
  const server = await serveShell({ port: 0, environment, logger, env: process.env });
  const guardProcess = guard ? startGuard(environment, guard) : null;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    async logged(during) {
      const messages: string[] = [];
      const read = (message: string) => void messages.push(message);
      readers.add(read);
      try {
        await during(messages);
      } finally {
        readers.delete(read);
      }
      return messages;
    },
    close: async () => {
      if (guardProcess) await stopGuard(guardProcess);
      await new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      });
    },
  };
}

/** The suite's test, with every page (and `request`) of the spec served by its own shell for `environment`. */
export function testWithShell(environment: string, options: { guard?: false | GuardOptions } = {}) {
  return base.extend<object, { specShell: SpecShell }>({
    specShell: [
      async ({ playwright: _ }, use) => {
        const shell = await startShell(environment, options);
        await use(shell);
        await shell.close();
      },
      // Its start includes its render processes' warm-up, which a busy machine (a CI runner) slows.
      { scope: 'worker', timeout: 120_000 },
    ],
    baseURL: async ({ specShell }, use) => use(specShell.url),
  });
}
