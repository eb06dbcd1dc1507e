// The security headers of every response the site serves (./httpServer.ts):
//  - everything: X-Content-Type-Options: nosniff and Referrer-Policy: strict-origin (a request names the page it came from by its origin only: a page's
//    address and query, a QA link's included, never travel in a Referer);
//  - HTML documents (the shell's pages, a remote's standalone page): a Content-Security-Policy
//    that allows only the origins Netnet really uses, frame-ancestors 'none' and X-Frame-Options: DENY.
//
// The origins come from the same table the runtime documents come from (@netnet/site: the catalogue,
// the auth service, every origin the remote map names, the published releases), so moving a
// remote to a CDN changes /remotes.json and the policy together. No 'unsafe-eval' (the Module
// Federation runtime loads remotes with <script src>, never eval) and no inline scripts (the
// built index.html has none). Style *attributes* are allowed inline (style-src-attr), because
// React renders `style` props; style sheets themselves come only from our own origins.
import type { ServerResponse } from 'node:http';
import site, { type MapSettings, type RuntimeSettings } from '@netnet/site';

/** What the policy's origins come from: the site table's map and runtime variables, from a server's config. */
export type OriginSettings = MapSettings & RuntimeSettings;

/** The dev servers one browser has pinned, which its documents then allow. */
export interface DevServers {
  origins: string[];
  websockets: string[];
}

/** The YouTube IFrame API and its player (a title's trailer), and YouTube's thumbnails. */
export const YOUTUBE = 'https://www.youtube.com';
export const YOUTUBE_IMAGES = 'https://i.ytimg.com';
/** Firebase Auth's endpoints, used when a real project replaces the emulator. */
export const FIREBASE_AUTH_ENDPOINTS = ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'];

function httpOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null; // relative (same origin, covered by 'self') or not an address at all
  }
}

/** Every absolute http(s) origin named anywhere in a value: entries, canaries, templates. */
export function originsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    const origin = httpOrigin(value);
    if (origin) found.add(origin);
  } else if (value && typeof value === 'object') {
    for (const nested of Object.values(value)) originsIn(nested, found);
  }
  return found;
}

/** The origins a browser running Netnet talks to, besides its own. */
export function siteOrigins(settings: OriginSettings) {
  const config = site.runtimeConfig(settings);
  const remotes = originsIn(site.remoteMap(settings));
  // Published releases (rollout) are served from their own origin, named by the rolled-out map.
  originsIn(settings.deployUrl, remotes);
  return {
    catalogue: [httpOrigin(config.catalogueUrl)].filter((origin) => origin !== null),
    remotes: [...remotes].sort(),
    auth: config.authEmulatorUrl ? [httpOrigin(config.authEmulatorUrl)].filter((origin) => origin !== null) : FIREBASE_AUTH_ENDPOINTS,
  };
}

/**
 * `devServers`: the dev servers one browser has pinned (docs/releases.md, "Develop against the
 *   real site"): only that browser's documents name them. A dev server's style-loader adds its
 *   styles as <style> elements, so that browser's style-src also allows inline style elements;
 *   scripts stay as strict as everyone's (dev builds use no eval: webpack.shared.js).
 */
export function contentSecurityPolicy(settings: OriginSettings, devServers: DevServers | null = null): string {
  const { catalogue, remotes, auth } = siteOrigins(settings);
  const dev = devServers?.origins.length ? devServers.origins : [];
  const devStyles = dev.length ? ["'unsafe-inline'"] : [];
  const devSockets = devServers && dev.length ? devServers.websockets : [];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...remotes, ...dev, YOUTUBE],
    'style-src': ["'self'", ...remotes, ...dev, ...devStyles],
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", ...catalogue, ...remotes, ...dev, YOUTUBE_IMAGES],
    'media-src': ["'self'", ...catalogue, ...remotes, ...dev],
    'font-src': ["'self'", ...remotes, ...dev],
    'connect-src': ["'self'", ...catalogue, ...remotes, ...dev, ...devSockets, ...auth],
    'frame-src': [YOUTUBE],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources)].join(' ')}`)
    .join('; ');
}

export const everyResponseHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin',
};

export function documentHeaders(settings: OriginSettings, devServers: DevServers | null = null) {
  return { 'Content-Security-Policy': contentSecurityPolicy(settings, devServers), 'X-Frame-Options': 'DENY' };
}

function contentTypeOf(res: ServerResponse, writeHeadArgs: unknown[]): string {
  const headers = (writeHeadArgs.find((arg) => arg && typeof arg === 'object' && !Array.isArray(arg)) ?? {}) as Record<string, unknown>;
  const key = Object.keys(headers).find((name) => name.toLowerCase() === 'content-type');
  return String((key ? headers[key] : res.getHeader('content-type')) ?? '');
}

/**
 * Call first thing for each request. The document headers are added when the response turns out
 * to be HTML (known only once the static handler has found the file, or the SPA fallback) — and to a
 * 304, whose headers replace the cached copy's: a revalidated index.html keeps its policy.
 * `devServers`: this request's browser's dev pins, if it has any (see contentSecurityPolicy).
 */
export function secureResponse(res: ServerResponse, settings: OriginSettings, devServers: DevServers | null = null): void {
  for (const [name, value] of Object.entries(everyResponseHeaders)) res.setHeader(name, value);
  const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
  res.writeHead = function writeSecureHead(this: ServerResponse, status: number, ...rest: unknown[]) {
    if (status === 304 || /^text\/html\b/i.test(contentTypeOf(res, rest))) {
      for (const [name, value] of Object.entries(documentHeaders(settings, devServers))) res.setHeader(name, value);
    }
    return writeHead.call(this, status, ...rest);
  } as ServerResponse['writeHead'];
}
