import type { ReleaseRef } from './reports';

// An uncaught error counts against a release only when its code was running: the script the error
// came from (the event's file, else a frame of its stack) lies under the folder of a release this
// page loaded — the folder of the release's mf-manifest.json, where all of its files are. Errors of
// the shell, of extensions or of nowhere in particular are no release's failure.

export interface LoadedRelease extends ReleaseRef {
  /** The release's folder, ending in '/'. */
  base: string;
}

/** The folder of a release's entry, or null when it would hold the shell's own files too. */
export function releaseBase(entry: string, page: string = window.location.href): string | null {
  try {
    const base = new URL('.', new URL(entry, page)).href;
    // A release at the root of the page's own origin would claim every error of the shell.
    return base === new URL('/', page).href ? null : base;
  } catch {
    return null;
  }
}

const URLS = /\bhttps?:\/\/[^\s()'"<>]+/g;

/** The script addresses an error event names: its file first, then its stack from the top. */
export function scriptUrlsOf(event: Event): string[] {
  const urls: string[] = [];
  let error: unknown;
  if (event instanceof ErrorEvent) {
    if (event.filename) urls.push(event.filename);
    error = event.error;
  } else if ('reason' in event) {
    error = (event as PromiseRejectionEvent).reason;
  }
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  return [...urls, ...(stack.match(URLS) ?? [])];
}

/** The release whose files the first attributable address belongs to, or null. */
export function attribute(urls: readonly string[], releases: readonly LoadedRelease[]): LoadedRelease | null {
  for (const url of urls) {
    let found: LoadedRelease | null = null;
    for (const release of releases) {
      // The deepest folder wins, should one release's folder hold another's.
      if (url.startsWith(release.base) && (!found || release.base.length > found.base.length)) found = release;
    }
    if (found) return found;
  }
  return null;
}
