// The part of the dev-pin rule every page needs at boot, `@netnet/rollout/dev-pin/origin` (./index.ts
// has the rest, for the pages that ask for a pin): kept apart so that a visitor's first page
// carries only these few bytes.

/** A pin's value names a dev server when it starts with this: `remote.remote-title=dev:http://localhost:3003`. */
export const DEV_PREFIX = 'dev:';
/** A pin's query parameter: `remote.<remote>`. */
export const PIN_PARAM = /^remote\.(.+)$/;

// What loopbackOrigin() gives: a dev server's origin exactly as the server names it in a map.
const LOOPBACK_ORIGIN = /^http:\/\/(?:localhost|127\.0\.0\.1):[1-9][0-9]{0,4}$/;

/** Whether an origin is one loopbackOrigin() gives: what the shell checks a map's dev server by. */
export const isLoopbackOrigin = (origin: string): boolean => LOOPBACK_ORIGIN.test(origin);
