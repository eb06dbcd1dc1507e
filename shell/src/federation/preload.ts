import { loadRemote } from '@module-federation/enhanced/runtime';
import { matchPath, type PageModule } from '@netnet/shared';
import { pageAt } from '../pages';
import { federationName, type RemoteName } from './remotes';

// Fetching a remote only when its page is asked for costs a chain of round trips (manifest,
// container, page chunk). The shell starts that chain earlier: for the page being opened while
// the shell itself boots, and, once the first page is in (./preloadLater.ts), for a link's page
// when the pointer or focus reaches the link and for the member pages' remotes (files only).

const loads = new Map<string, Promise<PageModule>>();
/** Remotes this page has asked for (loaded, loading or failed): the idle preload leaves them be. */
export const asked = new Set<string>();

export const pageKey = ({ remote, module }: { remote: RemoteName; module: string }) => `${federationName(remote)}/${module}`;

// A load that failed is kept this long: the page about to render it (the warm-up at boot races
// the first render) shows that failure instead of asking again, so one failed request is one
// failure, reported once. Later attempts (Retry, another visit) start anew.
const FAILED_LOAD_KEPT_MS = 5_000;

/** The page's module, loaded once; a failure is forgotten a moment later, so the next attempt (Retry) starts anew. */
export function loadPage(key: string): Promise<PageModule> {
  let load = loads.get(key);
  if (!load) {
    asked.add(key.slice(0, key.indexOf('/')));
    load = loadRemote<Partial<PageModule>>(key).then((module) => {
      if (!module?.default) throw new Error(`${key} did not provide a page.`);
      return module as PageModule;
    });
    const failed = load;
    failed.catch(() => setTimeout(() => loads.get(key) === failed && loads.delete(key), FAILED_LOAD_KEPT_MS));
    loads.set(key, load);
  }
  return load;
}

/** Forgets one page's load at once: its failure was shown, and Retry must ask again. */
export function forgetPage(key: string): void {
  loads.delete(key);
}

/** Forgets the remote's loaded pages: it now points at another release, whose pages load anew. */
export function forgetRemote(remote: RemoteName): void {
  const prefix = `${federationName(remote)}/`;
  for (const key of loads.keys()) if (key.startsWith(prefix)) loads.delete(key);
}

/**
 * Starts loading the page a path will show, and its data; settles when the page's code is here.
 * Failures surface later, in the page's own boundary.
 */
export async function warmPath(pathname: string, signedIn: boolean): Promise<void> {
  const entry = pageAt(pathname, signedIn);
  try {
    const page = await loadPage(pageKey(entry));
    page.prefetch?.(matchPath(entry.path, pathname)?.params ?? {});
  } catch {
    // shown by the page's error boundary when it renders
  }
}
