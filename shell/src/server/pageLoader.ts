import { createHash } from 'node:crypto';
import vm from 'node:vm';
import { createInstance, type ModuleFederation, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as jsxRuntime from 'react/jsx-runtime';
import * as jotai from 'jotai';
import * as shared from '@netnet/shared';
import type { PageModule, RemoteName } from '@netnet/shared';
import sharedPackage from '@netnet/shared/package.json';
import type { Release } from '../federation/remoteMap';
import { federationName } from '../federation/remotes';

// Loads a page from a release's server build with the Module Federation runtime, on Node
// (docs/architecture.md#server-rendering). A release's server build is a container like its
// browser build (server/remoteEntry.js beside mf-manifest.json), built for Node with every
// singleton left to the host: here React, jotai and `shared` are this server's own, so the shell
// frame and the page render with one React and one router. Each release gets its own federation
// instance, so a canary and its stable live side by side in one process.

/** The server build of a release: beside its browser manifest. */
export const serverEntryOf = (release: Release): string => new URL('server/remoteEntry.js', release.entry).href;
/** Where the release's browser files live: what its server build uses for the URLs it renders. */
const browserBaseOf = (release: Release): string => new URL('.', release.entry).href;

const versionOf = (range: string) => range.replace(/^[^\d]*/, '');
const singleton = (lib: unknown, version: string, requiredVersion: string) => ({
  version,
  lib: () => lib,
  shareConfig: { singleton: true, requiredVersion },
});
const deps = sharedPackage.dependencies;
const SHARED = {
  react: singleton(React, React.version, deps.react),
  'react/jsx-runtime': singleton(jsxRuntime, React.version, deps.react),
  'react-dom': singleton(ReactDOM, ReactDOM.version, deps['react-dom']),
  jotai: singleton(jotai, versionOf(deps.jotai), deps.jotai),
  [sharedPackage.name]: singleton(shared, sharedPackage.version, `^${sharedPackage.version}`),
};

// Node's own require (webpack leaves this name alone): a container may ask for Node's built-in modules.
declare const __non_webpack_require__: NodeJS.Require;

async function fetchEntry(url: string, integrity: string | undefined, signal: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const code = await response.text();
  if (integrity) {
    const [algorithm, expected] = integrity.split('-', 2) as [string, string];
    const actual = createHash(algorithm).update(code).digest('base64');
    if (actual !== expected) throw new Error(`${url} does not match the hash its release recorded`);
  }
  return code;
}

/** Runs a CommonJS container's code and returns its exports (the container). */
function evaluate(code: string, filename: string): unknown {
  const module = { exports: {} as unknown };
  const run = new vm.Script(`(function (exports, module, require) {${code}\n})`, { filename }).runInThisContext() as (
    exports: unknown,
    module: { exports: unknown },
    require: NodeJS.Require,
  ) => void;
  run(module.exports, module, __non_webpack_require__);
  return module.exports;
}

function releasePlugin(release: Release): ModuleFederationRuntimePlugin {
  return {
    name: 'netnet-server-release',
    async loadEntry({ remoteInfo }) {
      // The release's record vouches for its server build as it does for its browser entry.
      const signal = AbortSignal.timeout(ENTRY_TIMEOUT_MS);
      const code = await fetchEntry(remoteInfo.entry, release.integrity?.['server/remoteEntry.js'], signal);
      return evaluate(code, remoteInfo.entry) as never;
    },
    beforeInitContainer(args) {
      (args.remoteEntryInitOptions as Record<string, unknown>).netnetPublicPath = browserBaseOf(release);
      return args;
    },
  };
}

/** The longest a container's download may take; a render gives up on it much sooner (see serverPage). */
const ENTRY_TIMEOUT_MS = 10_000;
/** A release whose server build failed or was too slow is not tried again for this long. */
export const RETRY_AFTER_MS = 30_000;

interface Load {
  page: Promise<PageModule>;
  /** When it failed or took too long; it is skipped until RETRY_AFTER_MS later. */
  failedAt?: number;
  /** Why, when the release itself is at fault (it failed to load, or threw); unset for slowness, which the server's load may cause. */
  fault?: string;
  settled: boolean;
}

let created = 0;
/** One federation instance per release (by its server entry): its container is loaded once. */
const instances = new Map<string, ModuleFederation>();

function instanceFor(remote: RemoteName, release: Release): ModuleFederation {
  const entry = serverEntryOf(release);
  let federation = instances.get(entry);
  if (!federation) {
    const name = federationName(remote);
    federation = createInstance({
      name: `netnet_shell_server_${(created += 1)}`,
      // A global name per release: two releases of one remote are two containers.
      remotes: [{ name, entry, entryGlobalName: `${name}@${entry}` }],
      shared: SHARED,
      shareStrategy: 'loaded-first',
      plugins: [releasePlugin(release)],
    });
    instances.set(entry, federation);
  }
  return federation;
}

const loads = new Map<string, Load>();

function load(remote: RemoteName, module: string, release: Release): Promise<PageModule> {
  const name = federationName(remote);
  return instanceFor(remote, release)
    .loadRemote<Partial<PageModule>>(`${name}/${module}`)
    .then((page) => {
      if (!page?.default) throw new Error(`${name}/${module} did not provide a page.`);
      return page as PageModule;
    })
    .catch((error: unknown) => {
      // The runtime keeps a container that failed; the next attempt starts from a new instance.
      instances.delete(serverEntryOf(release));
      throw error;
    });
}

/** The server build is skipped or was too slow; `fault`: the release's own failure behind it, if that is what it was. */
export class ServerPageError extends Error {
  constructor(
    message: string,
    readonly fault: string | null = null,
  ) {
    super(message);
  }
}

/** Why a server page failed to load, when the release is at fault: null for slowness. */
export const faultOf = (error: unknown): string | null =>
  error instanceof ServerPageError ? error.fault : error instanceof Error ? error.message : String(error);

/**
 * `module` of `remote` from `release`'s server build, loaded once per release and kept. It must
 * arrive within `timeoutMs`; a failure or a timeout is remembered for RETRY_AFTER_MS, so one
 * broken release costs the renders that meet it nothing more than a lookup.
 */
export function serverPage(remote: RemoteName, module: string, release: Release, timeoutMs: number, now = Date.now()): Promise<PageModule> {
  const key = `${serverEntryOf(release)}#${module}`;
  let current = loads.get(key);
  if (current?.failedAt !== undefined && now - current.failedAt < RETRY_AFTER_MS) {
    return Promise.reject(new ServerPageError(`${remote} ${release.version}: its server build failed or was too slow a moment ago.`, current.fault ?? null));
  }
  if (!current || current.failedAt !== undefined) {
    const fresh: Load = { page: load(remote, module, release), settled: false };
    fresh.page.then(
      () => {
        // A build that was too slow for one render but arrived serves the next ones.
        fresh.settled = true;
        fresh.failedAt = undefined;
      },
      (error: unknown) => {
        fresh.settled = true;
        fresh.failedAt = Date.now();
        fresh.fault = error instanceof Error ? error.message : String(error);
      },
    );
    loads.set(key, fresh);
    current = fresh;
  }
  const pending = current;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (!pending.settled) pending.failedAt = Date.now();
      reject(new ServerPageError(`${remote} ${release.version}: its server build did not load within ${timeoutMs} ms.`));
    }, timeoutMs);
  });
  return Promise.race([pending.page, late]).finally(() => clearTimeout(timer));
}

/**
 * A page of a release that threw (`fault`: why) or hung while rendering: skipped, like a failed
 * load, for RETRY_AFTER_MS.
 */
export function renderFailed(module: string, release: Release, fault: string | null, now = Date.now()): void {
  const current = loads.get(`${serverEntryOf(release)}#${module}`);
  if (!current) return;
  current.failedAt = now;
  current.fault = fault ?? undefined;
}

/** Forgets the server builds of releases no longer in the map, so the process does not grow with every release. */
export function keepOnly(releases: readonly Release[]): void {
  const kept = new Set(releases.map(serverEntryOf));
  for (const key of loads.keys()) if (!kept.has(key.slice(0, key.lastIndexOf('#')))) loads.delete(key);
  for (const entry of instances.keys()) if (!kept.has(entry)) instances.delete(entry);
}

/**
 * Loads every page's server build for the releases members get now (stable and canary), so the
 * first renders after a start do not spend their budget on it. Failures are only logged: those
 * releases fall back when a render meets them.
 */
export async function warmServerPages(
  pages: readonly { remote: RemoteName; module: string }[],
  rolloutOf: (remote: RemoteName) => { stable: Release; canary?: Release } | undefined,
  timeoutMs = ENTRY_TIMEOUT_MS,
): Promise<void> {
  const loads = pages.flatMap(({ remote, module }) => {
    const rollout = rolloutOf(remote);
    const releases = rollout ? [rollout.stable, ...(rollout.canary ? [rollout.canary] : [])] : [];
    return releases.map((release) =>
      serverPage(remote, module, release, timeoutMs).catch((error: unknown) =>
        console.warn(`[netnet] ${remote} ${release.version}: no server render for now (${error instanceof Error ? error.message : error}).`),
      ),
    );
  });
  await Promise.all(loads);
}
