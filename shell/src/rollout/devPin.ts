import { remoteNames, type RemoteName } from '../federation/remotes';

// Dev pins as the shell sees them (docs/releases.md, "Develop against the real site"):
// `?qa-token=<token>&remote.remote-title=dev:http://localhost:3003` loads remote-title from the
// developer's dev server in this browser only. The shell's server decides (a loopback origin, a
// valid QA token; control-plane/src/deploy/devPin.ts) and names an accepted dev server in this
// browser's map; the shell checks the origin again before it loads anything from it, and tells
// the developer why a pin it asked for was refused. Same rule on both sides: devPin.test.ts.

export const DEV_PREFIX = 'dev:';
const PIN_PARAM = /^remote\.(.+)$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const LOOPBACK_ONLY =
  'only a dev server on this machine can be pinned: http://localhost:<port>, http://127.0.0.1:<port> or http://[::1]:<port>';
export const TOKEN_NEEDED = 'a dev server pin needs a valid QA token (npm run qa-token)';

/** The origin of a loopback dev server, or why the value is not one. */
export function loopbackOrigin(value: string): { origin: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: `"${value}" is not an address; ${LOOPBACK_ONLY}` };
  }
  const bare = url.username === '' && url.password === '' && url.search === '' && url.hash === '' && url.pathname === '/';
  const written = value.replace(/\/$/, '') === url.origin;
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.port === '' || !bare || !written) {
    return { error: `${value} is refused: ${LOOPBACK_ONLY}` };
  }
  // A Content-Security-Policy cannot name an IPv6 address (CSP3's host-source has no IPv6
  // literal): [::1] is pinned as localhost, which browsers resolve to ::1 and 127.0.0.1 alike.
  return { origin: url.hostname === '[::1]' ? `http://localhost:${url.port}` : url.origin };
}

/** `dev:<origin>` → the origin or why not; null when the value does not name a dev server. */
export function parseDevPin(value: string): { origin: string } | { error: string } | null {
  return value.startsWith(DEV_PREFIX) ? loopbackOrigin(value.slice(DEV_PREFIX.length)) : null;
}

const isRemoteName = (value: string): value is RemoteName => (remoteNames as readonly string[]).includes(value);

/** The dev pins this page's address asks for, by remote (the last one wins). */
export function devPinParams(search: string): Partial<Record<RemoteName, { origin: string } | { error: string }>> {
  const asked: Partial<Record<RemoteName, { origin: string } | { error: string }>> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const remote = PIN_PARAM.exec(key)?.[1];
    if (remote === undefined || !isRemoteName(remote)) continue;
    const parsed = parseDevPin(value);
    if (parsed) asked[remote] = parsed;
    else delete asked[remote];
  }
  return asked;
}

/** The address that unpins these remotes' dev servers: the server clears the pin's cookie (HttpOnly). */
export function clearDevPinsHref(href: string, remotes: readonly RemoteName[]): string {
  const url = new URL(href);
  // Appended as written, so the page's other parameters stay exactly as they were (`?debug`).
  const clears = remotes.map((remote) => `remote.${remote}=clear`);
  url.search = [url.search.slice(1), ...clears].filter(Boolean).join('&');
  return url.href;
}
