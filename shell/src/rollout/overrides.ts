import { isVersion, pinnedRelease } from '@netnet/rollout';
import { DEV_PREFIX } from '@netnet/rollout/dev-pin/origin';
import type { RemoteMap } from '../federation/remoteMap';
import { remoteNames, type RemoteName } from '../federation/remotes';
import { QA_TOKEN_PARAM } from './qaToken';

// QA pins: `?remote.remote-title=1.4.0` makes this browser load remote-title 1.4.0 until
// `?remote.remote-title=clear` (or the banner's Clear). Kept in localStorage so the pin survives
// navigation, reloads and sign-in; a pin that fails to load falls back to stable like a canary.
// Only versions the map lists as pinnable are honoured (not a rolled-back release; in production
// not without a QA token), and the parameters leave the address bar at boot, so no link a member
// copies or shares passes a pin on.
export type Overrides = Partial<Record<RemoteName, string>>;

const STORAGE_KEY = 'netnet:remote-overrides';
const PARAM = /^remote\.(.+)$/;
const CLEAR = 'clear';

const isRemoteName = (value: string): value is RemoteName => (remoteNames as readonly string[]).includes(value);

/** The overrides after the page's query parameters: a version pins, "clear" unpins. */
export function applyOverrideParams(current: Overrides, search: string): Overrides {
  const next: Overrides = { ...current };
  for (const [key, value] of new URLSearchParams(search)) {
    const remote = PARAM.exec(key)?.[1];
    if (remote === undefined) continue;
    if (!isRemoteName(remote)) {
      console.warn(`[netnet] ignoring the override for unknown remote "${remote}".`);
    } else if (value === CLEAR || value.startsWith(DEV_PREFIX)) {
      // A dev server pin (./devPin.ts) replaces a version pin; its own cookie is the server's.
      delete next[remote];
    } else if (isVersion(value)) {
      next[remote] = value;
    } else {
      console.warn(`[netnet] ignoring the override "${value}" for ${remote}: not a version.`);
    }
  }
  return next;
}

export function readOverrides(): Overrides {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    if (!stored || typeof stored !== 'object') return {};
    return Object.fromEntries(
      Object.entries(stored).filter(([remote, version]) => isRemoteName(remote) && isVersion(version)),
    ) as Overrides;
  } catch {
    return {};
  }
}

function writeOverrides(overrides: Overrides): void {
  try {
    if (Object.keys(overrides).length) localStorage.setItem(STORAGE_KEY, JSON.stringify(overrides));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage refused: the pins last for this page only
  }
}

/** Read at boot: the stored pins updated by this page's query, saved back. */
export function overridesFromUrl(search: string): Overrides {
  const overrides = applyOverrideParams(readOverrides(), search);
  writeOverrides(overrides);
  return overrides;
}

export function clearOverrides(): void {
  writeOverrides({});
}

/** Splits pins into those the map lets this browser use and those it refuses. */
export function checkPins(overrides: Overrides, map: RemoteMap): { honoured: Overrides; refused: Overrides } {
  const honoured: Overrides = {};
  const refused: Overrides = {};
  for (const [remote, version] of Object.entries(overrides) as [RemoteName, string][]) {
    const rollout = map.remotes[remote];
    if (rollout && pinnedRelease(rollout, version)) honoured[remote] = version;
    else refused[remote] = version;
  }
  return { honoured, refused };
}

export interface PagePins {
  honoured: Overrides;
  refused: Overrides;
  /** Remote → the dev server origin this browser loads it from (the server accepted the pin). */
  devServers: Partial<Record<RemoteName, string>>;
  /**
   * The page's query when it asks for a dev server pin, else '': the banner (loaded only then)
   * reads from it which were refused and why (./devPin.ts, refusedDevPins).
   */
  askedDevPins: string;
}

// Any `remote.<name>=dev:…` parameter, however encoded: a cheap test on the first page's path.
const ASKS_DEV_PIN = /(?:^|[?&])remote\.[^=&]*=dev(?::|%3A)/i;

/** The pins this page may use; refused ones are forgotten, so they cannot come back later. */
export function pinsForPage(search: string, map: RemoteMap): PagePins {
  const pins = checkPins(applyOverrideParams(readOverrides(), search), map);
  const devServers: PagePins['devServers'] = {};
  for (const remote of remoteNames) {
    const dev = map.remotes[remote]?.dev;
    if (!dev) continue;
    devServers[remote] = dev.origin;
    // The dev server wins over a version pin of the same remote.
    delete pins.honoured[remote];
  }
  writeOverrides(pins.honoured);
  for (const [remote, version] of Object.entries(pins.refused)) {
    console.warn(`[netnet] ${remote} cannot be pinned to ${version} here: the map does not list it as pinnable.`);
  }
  return { ...pins, devServers, askedDevPins: ASKS_DEV_PIN.test(search) ? search : '' };
}

export const isPinParam = (key: string) => PARAM.test(key) || key === QA_TOKEN_PARAM;

/**
 * The page without its `remote.*` and QA token parameters, every other parameter exactly as it
 * was written (`?debug` stays `?debug`).
 */
export function withoutOverrideParams(href: string): string {
  const url = new URL(href);
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((part) => {
      if (part === '') return false;
      const key = part.split('=')[0]!.replace(/\+/g, ' ');
      try {
        return !isPinParam(decodeURIComponent(key));
      } catch {
        return true;
      }
    });
  url.search = kept.length ? `?${kept.join('&')}` : '';
  return url.href;
}

/** Takes pins and tokens out of the address bar, so a copied or shared link never carries them. */
export function removeOverrideParams(): void {
  const clean = withoutOverrideParams(window.location.href);
  if (clean !== window.location.href) window.history.replaceState(window.history.state, '', clean);
}
