import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test as base } from './test';

// A shell of the spec's own, served exactly as `npm start` serves the shell (scripts/shellServer.mjs)
// but for a rollout environment of the spec's own. A page rendered by the server comes with the
// remote map and releases the server used (docs/architecture.md#server-rendering), so a spec's
// rollout reaches its pages only through a server that reads it; every other spec keeps the
// usual site. It runs in the spec's worker, on a free port, beside the rest of the running site.

interface GuardOptions {
  stages?: number[];
  intervalMs?: number;
}

interface ShellServerModule {
  serveShell(options: { port: number; environment: string; guard?: false | GuardOptions }): Promise<Server>;
}

export interface SpecShell {
  /** The origin its pages are served from. */
  url: string;
  close(): Promise<void>;
}

const root = join(__dirname, '..', '..');

/** `guard`: run the release guard on the environment's canaries, as `npm start` does. */
export async function startShell(environment: string, { guard = false }: { guard?: false | GuardOptions } = {}): Promise<SpecShell> {
  const { serveShell } = (await import(pathToFileURL(join(root, 'scripts', 'shellServer.mjs')).href)) as ShellServerModule;
  const server = await serveShell({ port: 0, environment, guard });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
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
      // A shell warms up its server builds before it listens: on a loaded machine, a minute or more.
      { scope: 'worker', timeout: 120_000 },
    ],
    baseURL: async ({ specShell }, use) => use(specShell.url),
  });
}
