import { parseDevPin, TOKEN_NEEDED } from '@netnet/rollout/dev-pin';
import { PIN_PARAM } from '@netnet/rollout/dev-pin/origin';
import { remoteNames, type RemoteName } from '../federation/remotes';

// Dev pins as the shell sees them (docs/releases.md, "Develop against the real site"):
// `?qa-token=<token>&remote.remote-title=dev:http://localhost:3003` loads remote-title from the
// developer's dev server in this browser only. The shell's server decides (a loopback origin, a
// valid QA token; control-plane/src/rollouts/devPin.ts) and names an accepted dev server in this
// browser's map; the shell checks the origin again before it loads anything from it, and tells
// the developer why a pin it asked for was refused. The rule itself is one, in @netnet/rollout/dev-pin.

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

/**
 * Remote → why the dev server pin the page's query asked for is not in use: not a loopback origin,
 * or the server did not name it in this browser's map (no valid QA token). `devServers`: the ones
 * the map names.
 */
export function refusedDevPins(search: string, devServers: Partial<Record<RemoteName, string>>): Partial<Record<RemoteName, string>> {
  const refused: Partial<Record<RemoteName, string>> = {};
  for (const [remote, asked] of Object.entries(devPinParams(search)) as [RemoteName, { origin: string } | { error: string }][]) {
    if ('error' in asked) refused[remote] = asked.error;
    else if (devServers[remote] !== asked.origin) refused[remote] = `${asked.origin} is refused: ${TOKEN_NEEDED}`;
  }
  return refused;
}

/** The address that unpins these remotes' dev servers: the server clears the pin's cookie (HttpOnly). */
export function clearDevPinsHref(href: string, remotes: readonly RemoteName[]): string {
  const url = new URL(href);
  // Appended as written, so the page's other parameters stay exactly as they were (`?debug`).
  const clears = remotes.map((remote) => `remote.${remote}=clear`);
  url.search = [url.search.slice(1), ...clears].filter(Boolean).join('&');
  return url.href;
}
