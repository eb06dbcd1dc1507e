import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { Channel } from '@netnet/rollout';
import type { RemoteVersions } from '../rollout/remoteVersions';
import { integrityAttributes, releaseRecord, trustRelease } from './integrity';
import { federationName, remoteNames, type RemoteName } from './remotes';

// Staged rollout as federation behaviour, out of page code: each remote is registered with the
// release chosen for this member just before its first load, and a canary (or QA pin) that
// fails to load is replaced by the stable release in the same request — the member sees the page.
// A file that fails later, past the entry (a lazy chunk or style sheet of the page), is a failed
// load too: fallBackLate() re-points the remote the same way, and the page loads again from stable.
// A release with recorded hashes loads only as published (./integrity.ts): a changed file is a
// failed load like any other.

export interface CanaryFallback {
  remote: RemoteName;
  failed: { version: string; channel: Channel };
  stable: string;
  message: string;
}

export function reportCanaryFallback(fallback: CanaryFallback): void {
  console.warn(
    `[netnet] ${fallback.remote} ${fallback.failed.version} (${fallback.failed.channel}) failed to load; ` +
      `using stable ${fallback.stable} instead: ${fallback.message}`,
  );
  window.dispatchEvent(new CustomEvent<CanaryFallback>('netnet:canary-fallback', { detail: fallback }));
}

/** 'remote_title/MovieDetail' → 'remote-title' */
function remoteOf(requestId: string): RemoteName | undefined {
  const container = requestId.split('/')[0];
  return remoteNames.find((name) => federationName(name) === container);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Register = (remotes: { name: string; entry: string }[], options: { force: boolean }) => void;

/**
 * The member's canary or pin of `remote` failed: stable from now on, told to the page (and the
 * release health reports), and the remote re-pointed. False when there is nothing to fall back
 * to (it was stable already, or it fell back before).
 */
function switchToStable(versions: RemoteVersions, remote: RemoteName, error: unknown, register: Register): boolean {
  const fallback = versions.fallBack(remote, messageOf(error));
  if (!fallback) return false;
  const { failed, stable } = fallback;
  reportCanaryFallback({
    remote,
    failed: { version: failed.version, channel: failed.channel },
    stable: stable.version,
    message: messageOf(error),
  });
  trustRelease(stable);
  // force: drops the failed container, its cached manifest and its global before re-pointing.
  register([{ name: federationName(remote), entry: stable.entry }], { force: true });
  return true;
}

/** A chunk or style sheet that webpack could not load (missing, refused, or not matching its hash). */
export function isFileLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || (error as { code?: unknown }).code === 'CSS_CHUNK_LOAD_FAILED';
}

/**
 * For the page's own error boundary: a file of `remote` failed to load after its entry did. With
 * a canary or pin, the remote now points at stable and true says the page should load again;
 * false: nothing changed (stable failed, or not a file that failed), the boundary shows its error.
 */
export function fallBackLate(versions: RemoteVersions, remote: RemoteName, error: unknown, register: Register): boolean {
  return isFileLoadError(error) && switchToStable(versions, remote, error, register);
}

/** An element for the runtime to use, with its own attributes and the integrity ones added. */
function withIntegrity<T extends HTMLScriptElement | HTMLLinkElement>(element: T, attrs: Record<string, unknown> | undefined, url: string): T | undefined {
  const extra = integrityAttributes(url);
  if (!extra.crossorigin) return undefined;
  for (const [name, value] of Object.entries({ ...attrs, ...extra })) {
    if (name === 'async' || name === 'defer') (element as unknown as Record<string, unknown>)[name] = value;
    else if (value !== undefined) element.setAttribute(name, String(value));
  }
  if (element instanceof HTMLScriptElement) element.src = url;
  else element.href = url;
  return element;
}

export default function rolloutPlugin(versions: RemoteVersions): ModuleFederationRuntimePlugin {
  // Remotes registered with the runtime (a release may have been chosen before: by the server).
  const registered = new Set<RemoteName>();
  return {
    name: 'netnet-rollout',
    beforeRequest(args) {
      const remote = remoteOf(args.id);
      if (remote && !registered.has(remote)) {
        registered.add(remote);
        const choice = versions.choose(remote);
        if (choice) {
          trustRelease(choice);
          args.origin.registerRemotes([{ name: federationName(remote), entry: choice.entry }], { force: true });
        }
      }
      return args;
    },
    async beforePreloadRemote({ preloadOps, origin }) {
      // Once a remote's manifest is read, the runtime fetches and runs its page's chunks beside
      // the container. They may run only with their hashes, so they wait for the release's record
      // (a page the server rendered has the manifest at once); a release whose record cannot be
      // had preloads nothing, and its load fails in loadEntry below.
      const usable = await Promise.all(
        preloadOps.map(({ nameOrAlias }) => {
          const remote = origin.options.remotes.find((known) => known.name === nameOrAlias || known.alias === nameOrAlias);
          return remote && 'entry' in remote ? releaseRecord(remote.entry).then(() => true, () => false) : true;
        }),
      );
      const kept = preloadOps.filter((_, index) => usable[index]);
      preloadOps.splice(0, preloadOps.length, ...kept);
    },
    async loadEntry({ remoteInfo }) {
      // The container runs only once its release's record of hashes is here: its chunks ask for them.
      await releaseRecord(remoteInfo.entry);
      // undefined: the runtime loads the container itself (with createScript below).
      return undefined as never;
    },
    createScript({ url, attrs }) {
      return withIntegrity(document.createElement('script'), attrs, url);
    },
    createLink({ url, attrs }) {
      return withIntegrity(document.createElement('link'), attrs, url);
    },
    onLoad({ id, options }) {
      const remote = remoteOf(id);
      if (remote) versions.loaded(remote, options.remoteInfo.buildVersion);
    },
    async errorLoadRemote({ id, error, lifecycle, origin }) {
      // 'onLoad' is the request's final failure (manifest, entry or module), after the retry plugin's one retry.
      if (lifecycle !== 'onLoad') return undefined;
      const remote = remoteOf(id);
      if (!remote || !switchToStable(versions, remote, error, (remotes, options) => origin.registerRemotes(remotes, options))) return undefined;
      try {
        return await origin.loadRemote(id);
      } catch {
        // Stable failed too: the original failure goes on to the area's error boundary and its Retry.
        return undefined;
      }
    },
  };
}
