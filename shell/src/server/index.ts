import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { redirects, setRuntimeConfig, type AuthState, type RemoteName, type RuntimeConfig } from '@netnet/shared';
import type { GuardState } from '../auth/guards';
import { SERVER_STATE_ID, serializeState, type ServerState } from '../boot/serverState';
import { parseRemoteMap, type Release, type RemoteMap } from '../federation/remoteMap';
import { pageKey } from '../federation/preload';
import type { Choice } from '@netnet/rollout';
import { DEVICE_COOKIE, idCookie, MEMBER_COOKIE, readIdCookie } from '../rollout/cookies';
import { isPinParam } from '../rollout/overrides';
import { areaFiles, areaLinks, hintOf, keepManifestsOf, parseTemplate, type AreaFiles, type Template } from './document';
import { chooseEncoding, type Coding } from '@netnet/server-kit/encoding';
import { keepRecordsOf, recordedHashes } from './releaseRecord';
import { releaseFor } from './releaseFor';
import { renderArea, type RenderResult } from './renderArea';
import { createRenderGate, type RenderGateOptions } from './renderGate';
import { compileRoutes } from './routes';
import { AreaRenderError, type RenderPool } from '@netnet/render-sandbox';
import { ticketReleases, type TicketIdentity, type TicketRelease } from './ticketReleases';

export { identityOf } from './ticketReleases';
export { createSandboxedPool, sandboxSupport } from '@netnet/render-sandbox';

// A map document is checked once, not once per page: the control plane hands every request
// without pins the same members' map until the store's changes (shell/server/shellServer.ts).
const parsedMaps = new WeakMap<object, RemoteMap>();
function mapOf(document: unknown): RemoteMap {
  if (typeof document !== 'object' || document === null) return parseRemoteMap(document);
  let map = parsedMaps.get(document);
  if (!map) parsedMaps.set(document, (map = parseRemoteMap(document)));
  return map;
}

/** The releases a map document's ticket names for a request (/remotes.json, whose map is not parsed here otherwise). */
export const ticketReleasesOf = (mapDocument: unknown, identity: TicketIdentity): TicketRelease[] => ticketReleases(mapOf(mapDocument), identity);

// The shell's server (docs/architecture.md#server-rendering): answers a page request with the
// composed page as HTML — the shell frame and the page's area rendered with the release this
// visitor's bucket gets, its catalogue answers inside — and the state the browser hydrates from.
// Every failure costs only the server's part: a canary that fails, throws or hangs is replaced
// by its stable; if stable fails too, the area is left to the browser, as before servers.

export interface PageServerOptions {
  /** The shell's built index.html. */
  template: string;
  /** What /config.json answers. */
  config: RuntimeConfig;
  /** What /remotes.json answers for this request. */
  remoteMap: (req: IncomingMessage) => unknown;
  /** Cookies to set with this request's page besides the device id (the browser's dev pins: docs/releases.md). */
  cookiesFor?: (req: IncomingMessage) => string[];
  /**
   * Renders an area with its release's server build, in the release's own processes (@netnet/render-sandbox).
   * None: every area is left to the browser, the shell frame rendered here.
   */
  areas?: RenderPool;
  /** How long an area's render may take to finish its data. */
  budgetMs?: number;
  /** The render cap (renderGate.ts); RENDERS by default. */
  renders?: Partial<RenderGateOptions>;
  /**
   * Signs the page's release-health ticket for the releases it may report on (none: the page
   * carries no ticket, and its reports do not count).
   */
  ticket?: (releases: TicketRelease[], identity: TicketIdentity) => string | undefined;
  /**
   * Counts a canary or pin that failed on the server by its own fault as a fell-back session of
   * that release: the server saw it, so the page need not (and cannot) say so.
   */
  onServerFallback?: (release: TicketRelease, identity: TicketIdentity, req: IncomingMessage) => void;
  /** Where its lines go: the server's logger (default: the console). */
  log?: PageLog;
}

export interface PageLog {
  warn(line: string): void;
  error(line: string): void;
}

const consoleLog: PageLog = { warn: (line) => console.warn(`[netnet] ${line}`), error: (line) => console.error(`[netnet] ${line}`) };

/** What the server in front knows about a request that its headers alone cannot be trusted for (shell/server/httpServer.ts). */
export interface RequestFacts {
  /** The client spoke HTTPS: to this process, or to a trusted proxy that says so. */
  https: boolean;
  /** Who the client is (its address, or the one a trusted proxy names): whose turn it is in the render line. */
  client?: string;
}

export interface PageServer {
  (req: IncomingMessage, res: ServerResponse, facts?: RequestFacts): Promise<void>;
  /** Loads the server builds of the releases in the map now, before the first visitor needs them. */
  warmUp(): Promise<void>;
  /** The map changed: lets go of the releases that left it and starts the render processes of new ones members get. */
  followMap(): void;
}

const BUDGET_MS = 300;
/** The longest a start waits for the render processes of the releases members get. */
const WARM_UP_WAIT_MS = 15_000;

/**
 * The render cap of one instance (docs/limits.md). Node renders on one thread, and
 * each render, once its catalogue answers are in, runs to its end in one go: every render in
 * flight adds its whole CPU time to the turn of the event loop it finishes in, and nothing else
 * (not even accepting a connection) happens meanwhile. Two per core keep the process busy while
 * one waits for the catalogue, and keep a turn short. A line absorbs bursts (a benchmark's 50
 * connections fit in it); a request that waits past its deadline gets the page to render in the
 * browser instead.
 */
export const RENDERS: RenderGateOptions = {
  maxInFlight: 2 * availableParallelism(),
  maxWaiting: 32 * availableParallelism(),
  maxWaitMs: 250,
};

/** How often, at most, the server says how many pages it left to the browser for being at its cap. */
const OVERFLOW_LOG_MS = 10_000;

interface Area {
  choice: Choice;
  result: RenderResult;
  files: AreaFiles | null;
  /** The release's recorded hashes by URL, or null for a release without them. */
  hashes: ReadonlyMap<string, string> | null;
}

export function createPageServer({ template, config, remoteMap, areas, cookiesFor = () => [], budgetMs = BUDGET_MS, renders = {}, ticket, onServerFallback, log = consoleLog }: PageServerOptions): PageServer {
  const page = parseTemplate(template);
  setRuntimeConfig(config);
  const routes = compileRoutes();
  const gate = createRenderGate({ ...RENDERS, ...renders });
  // The page without a render is the same for everyone: compressed once per coding.
  const clientPage = precompressed(`${page.head}${page.bodyStart}${page.bodyEnd}`);
  let leftToBrowser = 0;
  let loggedAt = 0;
  const overCap = () => {
    leftToBrowser += 1;
    const now = Date.now();
    if (now - loggedAt < OVERFLOW_LOG_MS) return;
    log.warn(`renders at their cap (${gate.inFlight} running, ${gate.waiting} waiting): ${leftToBrowser} page(s) left to the browser since the last note.`);
    loggedAt = now;
    leftToBrowser = 0;
  };

  async function servePage(req: IncomingMessage, res: ServerResponse, facts?: RequestFacts): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://netnet.invalid');
    const redirect = redirects[url.pathname];
    if (redirect) {
      res.writeHead(301, { Location: redirect, 'Cache-Control': 'no-cache' }).end();
      return;
    }
    const secure = facts?.https ?? (req.socket as { encrypted?: boolean }).encrypted === true;
    const cookies: string[] = [...cookiesFor(req)];
    const member = readIdCookie(req.headers.cookie, MEMBER_COOKIE);
    let device = readIdCookie(req.headers.cookie, DEVICE_COOKIE);
    if (!device) {
      device = randomUUID();
      cookies.push(idCookie(DEVICE_COOKIE, device, { secure }));
    }
    const headers = {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      // The page depends on who asks: never one member's page for another.
      Vary: 'Cookie, Accept-Encoding',
      ...(cookies.length ? { 'Set-Cookie': cookies } : {}),
    };
    // HEAD asks only whether the page is there: the same headers, and never a render.
    if (req.method === 'HEAD') {
      res.writeHead(200, headers).end();
      return;
    }
    // Interim responses are HTTP/1.1's: an HTTP/1.0 client must not get one (RFC 9110, 15.2). Nor
    // does a pipelined request still queued behind another's answer (no socket yet): Node would
    // send its 103 between the final answer's headers and its body.
    if (res.socket && (req.httpVersionMajor > 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1))) {
      res.writeEarlyHints?.({ link: page.shellFiles.map(hintOf) });
    }

    // The page without a render: the browser renders it (as before servers). It still brings the
    // runtime state (config and this request's map) when the map reads, so a browser sent here by
    // a busy server asks that server for nothing more before it starts.
    const clientOnly = () => {
      const coding = chooseEncoding(req.headers['accept-encoding']);
      const state = clientState(req, { member, device });
      const body = state ? compress(Buffer.from(withState(page, '', state)), coding) : clientPage(coding);
      res.writeHead(200, { ...headers, ...(coding && { 'Content-Encoding': coding }), 'Content-Length': String(body.length) });
      res.end(body);
    };
    // QA pins are the browser's business (they need its stored pins and token): it renders alone.
    if ([...url.searchParams.keys()].some(isPinParam)) return clientOnly();
    // A pipelined request (queued behind an earlier answer on its connection, so without a socket
    // yet) is never rendered: browsers do not pipeline, and a client that does would otherwise turn
    // each connection into as many renders as the cap lets through (and their catalogue calls).
    if (!res.socket) return clientOnly();
    const leave = await gate.enter({ client: facts?.client ?? req.socket.remoteAddress ?? '' });
    if (!leave) {
      overCap();
      return clientOnly();
    }
    try {
      // A client gone while its request waited costs no render.
      if (req.socket.destroyed) return;
      await render(req, res, url, headers, { member, device }, clientOnly);
    } finally {
      leave();
    }
  }

  async function render(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    headers: Record<string, string | string[]>,
    { member, device }: { member: string | null; device: string },
    clientOnly: () => void,
  ): Promise<void> {
    let map: RemoteMap;
    let mapDocument: unknown;
    try {
      mapDocument = remoteMap(req);
      map = mapOf(mapDocument);
    } catch (error) {
      log.warn(`${url.pathname} rendered in the browser: ${error instanceof Error ? error.message : error}`);
      return clientOnly();
    }
    followMap(map, areas);

    const signedIn = member !== null;
    const auth: AuthState = signedIn ? { status: 'authenticated', member: { uid: member, email: null } } : { status: 'anonymous' };
    const entry = routes.pageAt(url.pathname, signedIn);
    const onPage = routes.shows(entry, url.pathname);
    // A guard's answer, rendered at once: a visitor on a members' path gets the landing page (and
    // goes on to the path after signing in), a member on a visitors' path their home.
    const wanted = url.pathname + url.search;
    const from = !signedIn && routes.isMemberPath(url.pathname) ? wanted : undefined;
    // A member asking for a path that is no page at all is told so on /browse (the browser's guard says the same).
    const missing = signedIn && !onPage && !routes.shows(routes.pageAt(url.pathname, false), url.pathname);
    const guardState: GuardState | null = from ? { from } : missing ? { missing } : null;
    const location = onPage
      ? { pathname: url.pathname, search: url.search }
      : { pathname: entry.path, search: '', state: guardState };

    const key = pageKey(entry);
    const rollout = map.remotes[entry.remote];
    let area: Area | null = null;
    // The member's canary or pin failed on the server by its own fault (not slowness): the browser
    // is told, so the page's release-health report counts it against that release.
    let fellBackFrom: { version: string; channel: Choice['channel']; reason: string } | undefined;
    let fault: string | null = null;
    // A dev server pinned by this browser is on the developer's machine, out of the server's reach:
    // its area is left to the browser (as a failed render's is), the rest of the page rendered.
    if (rollout && !rollout.dev) {
      const first = releaseFor(entry.remote, rollout, { member, device });
      const tries: Choice[] = [first, ...(first.channel === 'stable' ? [] : [{ ...rollout.stable, channel: 'stable' as const, bucket: first.bucket }])];
      for (const choice of tries) {
        area = await tryRelease(choice);
        if (area) break;
      }
      if (area && area.choice !== first && fault !== null) {
        fellBackFrom = { version: first.version, channel: first.channel, reason: `on the server: ${fault}`, ...(onServerFallback && { counted: true as const }) };
        onServerFallback?.({ remote: entry.remote, version: first.version, channel: first.channel }, { member, device }, req);
      }
    }
    async function tryRelease(choice: Choice): Promise<Area | null> {
      if (!areas) return null;
      try {
        // The release's manifest (for the head's links) is read while the page renders; once per release.
        const files = areaFiles(choice, entry.module).catch(() => null);
        // A checked release's files are linked with their hashes, or not at all.
        const hashes = recordedHashes(choice)?.catch(() => undefined) ?? null;
        const result = await areas.render(entry.remote, choice, { module: entry.module, key, location, auth, budgetMs });
        if (result.errors.length === 0) {
          const [linked, recorded] = await Promise.all([files, hashes]);
          return { choice, result, files: recorded === undefined ? null : linked, hashes: recorded ?? null };
        }
        // A canary that throws is skipped for a while; stable may fail on one address only. One
        // cut short may only have met a busy server: not the release's fault.
        const thrown = result.cutShort ? null : messageOf(result.errors[0]);
        if (choice.channel !== 'stable') {
          areas.pageFailed(choice, entry.module, thrown);
          fault = thrown;
        }
        log.warn(`${entry.remote} ${choice.version} (${choice.channel}) failed to render ${url.pathname} on the server: ${JSON.stringify(messageOf(result.errors[0]))}`);
      } catch (error) {
        if (choice.channel !== 'stable') fault = error instanceof AreaRenderError ? error.fault : messageOf(error);
        log.warn(`${entry.remote} ${choice.version} (${choice.channel}) could not render on the server: ${JSON.stringify(messageOf(error))}`);
      }
      return null;
    }

    let result: RenderResult;
    try {
      result = area?.result ?? (await renderArea({ location, auth, page: { key, Page: null }, budgetMs }));
    } catch (error) {
      log.error(`the shell failed to render ${url.pathname} on the server: ${messageOf(error)}`);
      return clientOnly();
    }

    const state: ServerState = {
      config,
      map: mapDocument,
      chosen: area ? { [entry.remote]: { ...area.choice, ...(fellBackFrom && { fellBackFrom }) } } : {},
      catalogue: result.catalogue,
      member,
      ...ticketOf(map, { member, device }, fellBackFrom && { remote: entry.remote, version: fellBackFrom.version }),
      ...(onPage ? {} : { redirect: { to: entry.path, ...(from ? { from } : {}), ...(guardState ? { state: guardState } : {}) } }),
    };
    send(req, res, headers, withState(page, result.html, state, area?.files ? areaLinks(area.files, area.hashes ?? undefined) : ''));
  }

  /** The state of a page left to the browser: no render, no catalogue answers; null when the map cannot be read. */
  function clientState(req: IncomingMessage, identity: TicketIdentity): ServerState | null {
    try {
      const map = remoteMap(req);
      return { config, map, chosen: {}, catalogue: {}, member: identity.member, ...ticketOf(mapOf(map), identity) };
    } catch {
      return null;
    }
  }

  /** `{ ticket }` for the page's state, or nothing when the server signs none. */
  function ticketOf(map: RemoteMap, identity: TicketIdentity, failed?: { remote: string; version: string }): { ticket?: string } {
    const signed = ticket?.(ticketReleases(map, identity, failed), identity);
    return signed === undefined ? {} : { ticket: signed };
  }

  /** The map as a request without cookies gets it: the releases members get, no pins. */
  const membersMap = () => mapOf(remoteMap({ headers: {} } as IncomingMessage));

  return Object.assign(servePage, {
    followMap: () => {
      try {
        followMap(membersMap(), areas);
      } catch (error) {
        log.warn(`the new map was not followed: ${messageOf(error)}`);
      }
    },
    warmUp: async () => {
      if (!areas) return;
      const map = membersMap();
      // The releases members get now, so the first renders after a start are not left to the browser.
      const members = Object.entries(map.remotes).flatMap(([remote, rollout]) =>
        rollout && !rollout.dev ? [rollout.stable, ...(rollout.canary ? [rollout.canary] : [])].map((release) => areas.warm(remote as RemoteName, release)) : [],
      );
      // A machine too busy to start them soon does not hold the server back: until they are
      // ready, their areas are left to the browser.
      await Promise.race([Promise.all(members), new Promise((resolve) => setTimeout(resolve, WARM_UP_WAIT_MS).unref())]);
    },
  });
}

/** The page: the area's links in the head, `html` in #root, and the state the browser boots from after it. */
function withState(page: Template, html: string, state: ServerState, links = ''): string {
  return `${page.head}${links}${page.bodyStart}${html}${page.bodyEnd.replace(
    '</body>',
    `<script type="application/json" id="${SERVER_STATE_ID}">${serializeState(state)}</script></body>`,
  )}`;
}

/**
 * The page, compressed when the browser accepts it: brotli at a low quality, which costs well under
 * a millisecond for a page and still takes it to about a quarter, on the slow links the first paint
 * is measured on.
 */
function send(req: IncomingMessage, res: ServerResponse, headers: Record<string, string | string[]>, html: string): void {
  const coding = chooseEncoding(req.headers['accept-encoding']);
  const body = compress(Buffer.from(html), coding);
  res.writeHead(200, { ...headers, ...(coding && { 'Content-Encoding': coding }), 'Content-Length': String(body.length) });
  res.end(body);
}

function compress(body: Buffer, coding: Coding | null): Buffer {
  if (coding === 'br') return brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } });
  if (coding === 'gzip') return gzipSync(body, { level: 5 });
  return body;
}

/** A page that never changes, compressed the first time each coding is asked for and kept. */
function precompressed(html: string): (coding: Coding | null) => Buffer {
  const body = Buffer.from(html);
  const kept = new Map<Coding | null, Buffer>();
  return (coding) => {
    let packed = kept.get(coding);
    if (!packed) {
      packed = compress(body, coding);
      kept.set(coding, packed);
    }
    return packed;
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Lets go of releases that left the map, and starts the render processes of any new one members get. */
function followMap(map: RemoteMap, areas: RenderPool | undefined): void {
  const releases: Release[] = Object.values(map.remotes).flatMap((rollout) =>
    rollout ? [rollout.stable, ...(rollout.canary ? [rollout.canary] : []), ...rollout.pinnable] : [],
  );
  areas?.keepOnly(releases);
  // A canary's processes start with the first page after it appears, not with its first member.
  for (const [remote, rollout] of Object.entries(map.remotes)) {
    if (!areas || !rollout || rollout.dev) continue;
    for (const release of [rollout.stable, ...(rollout.canary ? [rollout.canary] : [])]) void areas.warm(remote as RemoteName, release);
  }
  keepManifestsOf(releases);
  keepRecordsOf(releases);
}
