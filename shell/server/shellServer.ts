// The shell as members meet it: its built files, /config.json and /remotes.json for one
// environment's rollout, every page address answered by the shell's server render
// (docs/architecture.md#server-rendering), and the browsers' release-health reports collected for
// the guard, a process of its own (docs/release-health.md). What it serves comes from the store
// every instance shares (docs/store.md), held in memory: a change reaches this instance within a
// second, and the database being away leaves it serving the last good map. The e2e suite starts
// one of its own for a rollout environment of its own, so its pages are rendered with that
// environment's releases.
import { mkdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createCollector,
  createHealthStore,
  createMetrics,
  createTicketService,
  deviceTag,
  materializeRelease,
  devPinSources,
  devPinsFor,
  isDevPinParam,
  openDatabase,
  qaTokenFromCookie,
  qaTokenRedirect,
  quote,
  remoteMapFor,
  throttledLog,
  ticketSecrets,
  watchMap,
} from '@netnet/control-plane/instance';
import { clientAddress, createLogger, parseTrustedProxies, viaHttps, type Logger } from '@netnet/server-kit';
import site from '@netnet/site';
import { readShellConfig, type ShellConfig } from './config.ts';
import { serveApp, type RequestFacts, type Service } from './httpServer.ts';
import { createHotFiles } from './hotFiles.ts';
import { releaseFilesFetch } from './releaseFetch.ts';
import { releaseFilesFrom, type ReleaseFiles } from './releaseFiles.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What the shell's server build (shell/src/server/, built by webpack to dist/server/pageServer.js) offers this process. */
interface PageServerBuild {
  identityOf: Parameters<typeof createTicketService>[0]['identityOf'];
  ticketReleasesOf(map: unknown, identity: unknown): ReturnType<Parameters<typeof createTicketService>[0]['releasesFor']>;
  sandboxSupport(): { available: true } | { available: false; why: string };
  createSandboxedPool(options: {
    serverBuild: string;
    config: unknown;
    log: (line: string) => void;
    fetchFile?: typeof fetch;
  }): { running(): { remote: string; version: string; ready: number }[]; close(): void };
  createPageServer(options: {
    template: string;
    config: unknown;
    remoteMap: (req: IncomingMessage) => unknown;
    areas?: unknown;
    onServerFallback?: (release: { remote: string; version: string; channel: string }, identity: { member?: string; device: string }, req: IncomingMessage) => void;
    cookiesFor?: (req: IncomingMessage) => string[];
    log?: { warn(line: string): void; error(line: string): void };
  }): ((req: IncomingMessage, res: ServerResponse, facts: RequestFacts) => Promise<void>) & { warmUp(): Promise<void>; followMap(): void };
}

type Live = Awaited<ReturnType<typeof watchMap>>;

/** Releases a report may name: published ones (as this instance knows them) and each remote's own build. */
function knownReleases(live: Live, config: ShellConfig) {
  const own = new Set(Object.entries(site.remoteMap(config).remotes).map(([remote, { stable }]) => `${remote} ${stable.version}`));
  return (remote: string, release: string) =>
    own.has(`${remote} ${release}`) || Boolean(live.current().releases.get(remote)?.some((known) => known.version === release));
}

interface ShellOptionsBase {
  port: number;
  /** Whose rollout map (in the store) /remotes.json and the pages use (default: NETNET_ENV, else local). */
  environment?: string;
  /** false serves the shell's index.html alone, the browser rendering everything (NETNET_SSR=off). */
  ssr?: boolean;
  /**
   * A port of its own for the releases origin (`npm start`'s :8090): releases' files at its root,
   * as on `/releases/` of the instance's port. In a cluster the front door gives that origin its
   * own host name and passes it to the instances' `/releases/`.
   */
  releasesPort?: number;
  /** An openDatabase() result to use (else one is opened, and closed with the server). */
  database?: Awaited<ReturnType<typeof openDatabase>>;
  logger?: Logger;
}

/** The instance's config, read once by its entry (./main.ts, npm start); a test may give an environment to read it from instead. */
export type ShellOptions = ShellOptionsBase & ({ config: ShellConfig; env?: undefined } | { env: NodeJS.ProcessEnv; config?: undefined });

/** Where releases' server code runs on this instance: in the sandbox, or nowhere (their areas render in the browser). */
export type ReleaseCodeState = { runs: 'sandboxed' } | { runs: 'nowhere'; why: string };

export type ShellServer = Server & { storeState: () => unknown; releaseCode: ReleaseCodeState };

/** The shell's server, listening; closing it closes the store. */
export async function serveShell({ port, environment, ssr, releasesPort, database, env, config = readShellConfig(env ?? {}), logger = createLogger('shell', config.logLevel) }: ShellOptions): Promise<ShellServer> {
  const environmentName = environment ?? config.environment;
  const renders = ssr ?? config.ssr === 'on';
  const ownDatabase = !database;
  // As the instances' role: it reads the map and the releases and adds release-health counts; it
  // may change no map at all, the guard being a process of its own (docs/store.md, "Roles").
  const store = database ?? (await openDatabase({ store: config, role: 'instance' }));
  const storeLog = logger.child({ part: 'store' });
  // A new map starts the render processes of its new releases at once, not with their first page.
  let mapChanged = () => {};
  const live = await watchMap({ db: store.pool, config: store.config, environment: environmentName, log: (line: string) => storeLog.info(line), onChange: () => mapChanged() });
  // Releases' files: any release the store lists, from this instance's working copy of it.
  const workingDir = config.deployDir;
  mkdirSync(workingDir, { recursive: true });
  const hasRelease = releaseFilesFrom({
    db: store.pool,
    dir: workingDir,
    remotes: site.remotes,
    listed: (remote, version) => Boolean(live.current().releases.get(remote)?.some((known) => known.version === version)),
    materialize: materializeRelease,
  });
  // One memory of hot files for both routes of `npm start` (:8090 and /releases/).
  const hot = createHotFiles();
  const releases = (prefix: ReleaseFiles['prefix']): ReleaseFiles => ({ prefix, dir: workingDir, has: hasRelease, hot });
  // Listening before the warm-up below: pages name this origin for their releases' files.
  const releasesServer = releasesPort === undefined ? null : await serveApp({ dir: workingDir, port: releasesPort, releases: releases(''), config, logger });
  // The dev servers this request's browser has pinned (docs/releases.md, "Develop against the real
  // site"), worked out once per request: its map, its page's policy and its cookie agree.
  const trusted = parseTrustedProxies(config.trustedProxies, config.trustedProxySecret);
  const devPinsOf = new WeakMap<IncomingMessage, ReturnType<typeof devPinsFor>>();
  // Anyone can make a refused pin with a link: its line says what was asked, quoted, at most every 10 s.
  const refusedPin = throttledLog((line: string) => logger.warn(line));
  const devPins = (req: IncomingMessage) => {
    let pins = devPinsOf.get(req);
    if (!pins) {
      pins = devPinsFor(req, { environment: environmentName, remotes: site.remotes, qaTokens: live.current().qaTokens, qaSecret: config.qaSecret, secure: viaHttps(req, trusted) });
      for (const { remote, value, reason } of pins.refused) {
        refusedPin(`dev pin of ${quote(remote)} refused for ${quote(clientAddress(req, trusted))}: ${quote(value)}: ${quote(reason)}`);
      }
      devPinsOf.set(req, pins);
    }
    return pins;
  };
  // From memory, so a rollout change reaches members on their next page load without a query.
  // A QA token (production pins) comes in its HttpOnly cookie (a QA link's token is moved there by
  // the redirect below), or with the browser's dev pins in theirs, or as a header; never in a URL
  // a cache or a log keeps.
  // The map of a request with no QA token and no dev pin (nearly every one) is the members' map:
  // made once per change of what the store holds (live.current() is a new snapshot then), so the
  // page server, which parses a map once per map it is given, parses it once per change too.
  let members: { known: ReturnType<Live['current']> | null; map: unknown } = { known: null, map: null };
  const remoteMap = (req: IncomingMessage) => {
    const known = live.current();
    if (known.error) throw known.error;
    const { pins, token } = devPins(req);
    const header = req.headers['x-netnet-qa-token'];
    const qaToken = (typeof header === 'string' ? header : undefined) ?? token ?? qaTokenFromCookie(req.headers.cookie) ?? undefined;
    if (qaToken !== undefined || Object.keys(pins).length > 0) return remoteMapFor(environmentName, known, config, { qaToken, devPins: pins });
    if (members.known !== known) members = { known, map: Object.freeze(remoteMapFor(environmentName, known, config)) };
    return members.map;
  };
  // A QA link (?qa-token=…): answered with a redirect to the address without the token, which
  // goes into an HttpOnly cookie, before the page loads anything; dev pins it sets go with it.
  const qaLinks: Service = {
    matches: (req) => (req.method === 'GET' || req.method === 'HEAD') && new URL(req.url ?? '/', 'http://netnet.invalid').searchParams.has('qa-token'),
    async handle(req, res) {
      const { setCookie, refused } = devPins(req);
      // A refused pin stays in the address, so the page can say why (its boot takes it out of the
      // address bar); a pin taken goes into its cookie.
      const wasRefused = (key: string, value: string) => refused.some((pin) => key === `remote.${pin.remote}` && pin.value === value);
      const moved = qaTokenRedirect(req.url ?? '/', { secure: viaHttps(req, trusted), isDevPin: (key: string, value: string) => isDevPinParam(key, value) && !wasRefused(key, value) });
      if (!moved) return void res.writeHead(400).end();
      res.writeHead(303, { Location: moved.location, 'Set-Cookie': [...moved.cookies, ...(setCookie ? [setCookie] : [])], 'Cache-Control': 'no-store' });
      res.end();
    },
  };
  // Release-health tickets: several servers share the secret; `npm start` makes one up per start.
  // A page gets its ticket once it runs (POST /health/ticket), never with its HTML or its map.
  const secrets = ticketSecrets({ current: config.ticketSecret, previous: config.ticketSecretPrevious, local: environmentName !== 'production' });
  // What a page's code, in the browser and in its render process, is told of the site (/config.json).
  const runtime = site.runtimeConfig(config);
  const pageServer = createRequire(import.meta.url)(join(root, 'shell/dist/server/pageServer.js')) as PageServerBuild;
  const tickets = createTicketService({
    secrets,
    trusted,
    identityOf: pageServer.identityOf,
    releasesFor: (req, identity) => pageServer.ticketReleasesOf(remoteMap(req), identity),
  });
  const health = createHealthStore({ db: store.pool, environment: environmentName });
  const collector = createCollector({ store: health, secrets, trusted, otlp: config, isKnownRelease: knownReleases(live, config) });
  const healthLog = logger.child({ part: 'health' });
  // Each release's server build renders in processes of its own, never in this one (docs/sandbox.md).
  const renderLog = logger.child({ part: 'render' });
  // Where the OS cannot sandbox it (no bubblewrap, no user namespaces, macOS), no release's server
  // code runs at all: its areas render in the browser only. Production never runs so.
  const sandbox = pageServer.sandboxSupport();
  const releaseCode: ReleaseCodeState = !renders ? { runs: 'nowhere', why: 'server rendering is off (NETNET_SSR=off)' } : sandbox.available ? { runs: 'sandboxed' } : { runs: 'nowhere', why: sandbox.why };
  if (renders && !sandbox.available) {
    if (environmentName === 'production') throw new Error(`NETNET_ENV=production runs releases' server code only in the render sandbox: ${sandbox.why}.`);
    renderLog.warn(`releases' server code does not run here (${sandbox.why}): their areas render in the browser only (docs/sandbox.md).`);
  }
  // A release's server build comes from the store through this instance's own files, so warming up
  // needs no instance answering yet (./releaseFetch.ts).
  const fetchFile = releaseFilesFetch(config.deployUrl, { dir: workingDir, has: hasRelease });
  const areas = releaseCode.runs === 'sandboxed' ? pageServer.createSandboxedPool({ serverBuild: join(root, 'shell/dist/server'), config: runtime, log: (line) => renderLog.warn(line), fetchFile }) : undefined;
  const pages = renders
    ? pageServer.createPageServer({
        template: readFileSync(join(root, 'shell/dist/index.html'), 'utf8'),
        config: runtime,
        remoteMap,
        areas,
        log: { warn: (line) => renderLog.warn(line), error: (line) => renderLog.error(line) },
        // What the server saw fail itself counts, for the request's device and network.
        onServerFallback: ({ remote, version, channel }, { member, device }, req) =>
          void collector.recordServerFallback({ remote, release: version, channel }, deviceTag(secrets, member ?? device), req).catch((error: Error) => {
            healthLog.warn(`a fallback on the server was not counted: ${error.message}`);
          }),
        // A page that changes the browser's dev pins sets their cookie.
        cookiesFor: (req) => {
          const { setCookie } = devPins(req);
          return setCookie ? [setCookie] : [];
        },
      })
    : undefined;
  // The server builds of the releases members get now load before the shell answers, so the first
  // renders after a start are not left to the browser.
  await pages?.warmUp().catch((error: Error) => logger.warn(`Server rendering starts cold: ${error.message}`));
  if (pages) mapChanged = () => pages.followMap();
  const server = (await serveApp({
    dir: join(root, 'shell/dist'),
    port,
    spa: true,
    // The server's own code is not for browsers.
    only: (path) => !path.startsWith('/server/'),
    documents: { '/config.json': () => runtime, '/remotes.json': remoteMap },
    pages,
    services: [qaLinks, collector, tickets, createMetrics({ collector, storeState: () => live.state(), renderProcesses: areas && (() => areas.running()), operator: config })],
    releases: releases('/releases'),
    // Only the documents of a browser with dev pins allow its dev servers.
    devServers: (req) => {
      const { pins } = devPins(req);
      return Object.keys(pins).length ? devPinSources(pins) : null;
    },
    config,
    logger,
  })) as ShellServer;
  // What the instance's health endpoint tells of the store: the map it serves and how fresh it is.
  server.storeState = () => live.state();
  server.releaseCode = releaseCode;
  server.on('close', () => {
    releasesServer?.close();
    areas?.close();
    void (async () => {
      collector.close();
      await health.close();
      await live.close();
      if (ownDatabase) await store.close();
    })();
  });
  return server;
}
