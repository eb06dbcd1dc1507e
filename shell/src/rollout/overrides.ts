import { isVersion } from '../federation/remoteMap';
import { remoteNames, type RemoteName } from '../federation/remotes';

// QA pins: `?remote.remote-title=1.4.0` makes this browser load remote-title 1.4.0 until
// `?remote.remote-title=clear` (or the banner's Clear). Kept in localStorage so the pin survives
// navigation, reloads and sign-in; a pin that fails to load falls back to stable like a canary.
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
    } else if (value === CLEAR) {
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

/** The page without its `remote.*` parameters, so clearing doesn't pin again on the next load. */
export function withoutOverrideParams(href: string): string {
  const url = new URL(href);
  for (const key of [...url.searchParams.keys()]) {
    if (PARAM.test(key)) url.searchParams.delete(key);
  }
  return url.href;
}
