// Dev pins: a developer points one area of the real site at the dev server on their own machine
// (`?qa-token=<token>&remote.remote-title=dev:http://localhost:3003`), in their browser only
// (docs/releases.md, "Develop against the real site"). The shell's server decides here, per
// request, which dev pins a browser has:
//  - only a loopback origin (http://localhost:<port>, http://127.0.0.1:<port>, http://[::1]:<port>)
//    is accepted: a pin can make a browser run code from no release at all, so it may only be code
//    on the developer's own machine, never an address someone else controls;
//  - only with a valid QA token (./qaToken.ts), in every environment: version pins need one only in
//    production, but a dev pin runs code nobody published, so it never comes from a bare link;
//  - it is kept in an HttpOnly cookie with the token that allowed it, for the token's life: the
//    server needs it on every page request (the page's CSP names the origin, and the server leaves
//    that area to the browser), and page scripts need never read it. The address bar and shared
//    links never carry it (the shell takes the parameters out at boot).
// The rule is the rollout package's (the shell applies it too).
import { loopbackOrigin, parseDevPin, TOKEN_NEEDED } from '@netnet/rollout/dev-pin';
import { PIN_PARAM } from '@netnet/rollout/dev-pin/origin';
import { cookieValue } from '@netnet/server-kit';
import { verifyQaToken } from './qaToken.ts';

export const DEV_PIN_COOKIE = 'netnet-dev-pin';

/** Whether an address parameter pins a remote to a dev server (`remote.<name>=dev:…`, well-formed or not). */
export const isDevPinParam = (key: string, value: string): boolean => PIN_PARAM.test(key) && parseDevPin(value) !== null;
const QA_TOKEN_PARAM = 'qa-token';

export interface RefusedDevPin {
  remote: string;
  value: string;
  reason: string;
}

export interface DevPins {
  /** Remote → the dev server origin this browser's pages load it from. */
  pins: Record<string, string>;
  /** The QA token that allowed them (valid now), if any. */
  token: string | null;
  /** Dev pins this request asked for and did not get, with the reason. */
  refused: RefusedDevPin[];
  /** A Set-Cookie value when this request changed the browser's dev pins. */
  setCookie: string | null;
}

interface Stored {
  token: string;
  pins: Record<string, string>;
}

const readCookie = (header: string | undefined): string | null => cookieValue(header, DEV_PIN_COOKIE);

function decode(value: string | null, remotes: readonly string[]): Stored | null {
  if (!value || !/^[A-Za-z0-9_-]{1,2048}$/.test(value)) return null;
  try {
    const raw: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (!raw || typeof raw !== 'object') return null;
    const { token, pins } = raw as Record<string, unknown>;
    if (typeof token !== 'string' || !pins || typeof pins !== 'object') return null;
    const kept: Record<string, string> = {};
    for (const [remote, origin] of Object.entries(pins)) {
      if (!remotes.includes(remote) || typeof origin !== 'string') continue;
      const checked = loopbackOrigin(origin);
      if ('origin' in checked) kept[remote] = checked.origin;
    }
    return { token, pins: kept };
  } catch {
    return null;
  }
}

const encode = (stored: Stored) => Buffer.from(JSON.stringify(stored)).toString('base64url');

function cookie(value: string, maxAge: number, secure: boolean): string {
  return `${DEV_PIN_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The token's expiry, in epoch seconds (verifyQaToken has checked its form). */
const expiryOf = (token: string) => Number(token.split('.')[0]);

export interface DevPinRequest {
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The dev pins of one request: those its cookie holds, changed by the address's `remote.*`
 * parameters (`dev:<origin>` pins, a version or `clear` unpins the dev server). A new pin needs a
 * QA token valid for this environment beside it (the address's, or the X-Netnet-QA-Token
 * header's); a kept one stands while the token stored with it is valid; unpinning needs none.
 */
export function devPinsFor(
  req: DevPinRequest,
  {
    environment,
    remotes,
    qaTokens,
    qaSecret,
    now = Date.now(),
    secure = false,
  }: {
    environment: string;
    remotes: readonly string[];
    /** The ids of the environment's standing QA tokens (the store's qa_tokens). */
    qaTokens: ReadonlySet<string>;
    /** NETNET_QA_SECRET (QA_SECRET_VARIABLES of ./qaToken.ts): unset, no token is valid. */
    qaSecret: string | undefined;
    now?: number;
    secure?: boolean;
  },
): DevPins {
  const header = req.headers.cookie;
  const stored = decode(readCookie(Array.isArray(header) ? header.join('; ') : header), remotes);
  const params = new URL(req.url ?? '/', 'http://netnet.invalid').searchParams;
  const headerToken = req.headers['x-netnet-qa-token'];
  const valid = (token: string | null | undefined): token is string =>
    typeof token === 'string' && verifyQaToken(token, { secret: qaSecret, environment, standing: qaTokens, now });
  // A new pin needs the token with it (the address's, or the header's): a link from elsewhere
  // cannot re-point a developer's pinned browser with the token its cookie holds.
  const offered = [params.get(QA_TOKEN_PARAM), typeof headerToken === 'string' ? headerToken : null].find(valid) ?? null;
  // Unpinning is the browser's own doing (the banner's Clear, or an address typed in it), never a
  // link from another site's page: a browser names a request's origin in Sec-Fetch-Site. (Without
  // the header, a client that is not a browser, or a site served over plain HTTP, it is taken.)
  const site = req.headers['sec-fetch-site'];
  const ownAction = site === undefined || site === 'same-origin' || site === 'none';
  const token = offered ?? (stored && valid(stored.token) ? stored.token : null);

  // The cookie's pins stand only with the token they were stored with, still valid.
  const pins: Record<string, string> = stored && valid(stored.token) ? { ...stored.pins } : {};
  let changed = stored !== null && (!valid(stored.token) || Object.keys(pins).length !== Object.keys(stored.pins).length);
  const refused: RefusedDevPin[] = [];
  for (const [key, value] of params) {
    const remote = PIN_PARAM.exec(key)?.[1];
    if (remote === undefined || !remotes.includes(remote)) continue;
    const parsed = parseDevPin(value);
    if (parsed === null) {
      // A version or "clear": this remote no longer comes from a dev server. No token needed (the
      // QA token lives in an HttpOnly cookie the page cannot send beside it), only the browser's own action.
      if (remote in pins && ownAction) {
        delete pins[remote];
        changed = true;
      }
    } else if ('error' in parsed) {
      refused.push({ remote, value, reason: parsed.error });
    } else if (offered === null) {
      refused.push({ remote, value, reason: TOKEN_NEEDED });
    } else {
      pins[remote] = parsed.origin;
      changed = true;
    }
  }
  if (token !== null && stored !== null && token !== stored.token && Object.keys(pins).length > 0) changed = true;

  let setCookie: string | null = null;
  if (changed) {
    const maxAge = token === null ? 0 : Math.max(0, expiryOf(token) - Math.floor(now / 1000));
    setCookie = Object.keys(pins).length > 0 && token !== null ? cookie(encode({ token, pins }), maxAge, secure) : cookie('', 0, secure);
  }
  return { pins: token === null ? {} : pins, token, refused, setCookie };
}

/**
 * What the page's Content-Security-Policy must add for a browser with these dev pins: each dev
 * server's origin for its scripts, styles, images, fonts and requests, and its websocket (the dev
 * server's live reload), which it opens to localhost (webpack.shared.js) whichever loopback name
 * the pin used: both loopback names a policy can hold for that port.
 */
export function devPinSources(pins: Record<string, string>): { origins: string[]; websockets: string[] } {
  const origins = [...new Set(Object.values(pins))].sort();
  const ports = [...new Set(origins.map((origin) => new URL(origin).port))];
  return { origins, websockets: ports.flatMap((port) => [`ws://localhost:${port}`, `ws://127.0.0.1:${port}`]) };
}
