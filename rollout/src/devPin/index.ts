// Which dev servers a browser may pin (docs/releases.md, "Develop against the real site"): the
// one rule the server that accepts a pin and the shell that loads it both apply.

import { DEV_PREFIX, isLoopbackOrigin } from './origin.ts';

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
  // The written form must be the origin itself (a trailing "/" aside): nothing the URL parser fixes up.
  const written = value.replace(/\/$/, '') === url.origin;
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.port === '' || !bare || !written) {
    return { error: `${value} is refused: ${LOOPBACK_ONLY}` };
  }
  // A Content-Security-Policy cannot name an IPv6 address (CSP3's host-source has no IPv6
  // literal): [::1] is pinned as localhost, which browsers resolve to ::1 and 127.0.0.1 alike.
  const origin = url.hostname === '[::1]' ? `http://localhost:${url.port}` : url.origin;
  return isLoopbackOrigin(origin) ? { origin } : { error: `${value} is refused: ${LOOPBACK_ONLY}` };
}

/** `dev:<origin>` → the origin or why not; null when the value does not name a dev server at all. */
export function parseDevPin(value: string): { origin: string } | { error: string } | null {
  return value.startsWith(DEV_PREFIX) ? loopbackOrigin(value.slice(DEV_PREFIX.length)) : null;
}
