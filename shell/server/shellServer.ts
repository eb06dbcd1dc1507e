// The shell as `npm start` serves it: its built files, /config.json and /remotes.json for one
// environment's rollout, every page address answered by the shell's server render
// (docs/architecture.md#server-rendering), and the browsers' release-health reports collected for
// the guard, a process of its own (docs/release-health.md). What it serves comes
// from the store every instance shares (docs/store.md), held in memory: a change reaches this
// instance within a second, and the database being away leaves it serving the last good map.
// The e2e suite starts one of its own for a rollout environment of its own, so its pages are
// rendered with that environment's releases.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientAddress, trustedProxiesFrom, viaHttps } from '@netnet/server-kit';
import { serveApp } from './serve.mjs';
import {
  createCollector,
  createHealthStore,
  createMetrics,
  createTicketService,
  deviceTag,
  devPinSources,
  devPinsFor,
  environmentName,
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

const require = createRequire(import.meta.url);
const site = require('./site.cjs');
const root = fileURLToPath(new URL('..', import.meta.url));

/** Releases a report may name: published ones (as this instance knows them) and each remote's own build. */
function knownReleases(live, env = process.env) {
  const own = new Set(Object.entries(site.remoteMap(env).remotes).map(([remote, { stable }]) => `${remote} ${stable.version}`));
  return (remote, release) =>
    own.has(`${remote} ${release}`) || Boolean(live.current().releases.get(remote)?.some((known) => known.version === release));
}

/**
 * @param {{ port: number, environment?: string, ssr?: boolean }} options
 *   environment: whose rollout map (in the store) /remotes.json and the pages use (default: NETNET_ENV, else local).
 *   ssr: false serves the shell's index.html alone, the browser rendering everything (NETNET_SSR=off).
 *   database: an openDatabase() result to use (else one is opened, and closed with the server).
 * @returns {Promise<import('node:http').Server>} closing it closes the store
 */
export async function serveShell({ port, environment = environmentName(), ssr = process.env.NETNET_SSR !== 'off', database }) {
  const ownDatabase = !database;
  // As the instances' role: it reads the map and the releases and adds release-health counts; it
  // may change no map at all, the guard being a process of its own (docs/store.md, "Roles").
  const store = database ?? (await openDatabase({ role: 'instance' }));
  const log = (line) => console.log(`[store] ${line}`);
  // A new map starts the render processes of its new releases at once, not with their first page.
  let mapChanged = () => {};
  const live = await watchMap({ db: store.pool, config: store.config, environment, log, onChange: () => mapChanged() });
  // The dev servers this request's browser has pinned (docs/releases.md, "Develop against the real
  // site"), worked out once per request: its map, its page's policy and its cookie agree.
  const trusted = trustedProxiesFrom(process.env);
  const devPinsOf = new WeakMap();
  // Anyone can make a refused pin with a link: its line says what was asked, quoted, at most every 10 s.
  const refusedPin = throttledLog((line) => console.warn(line));
  const devPins = (req) => {
    let pins = devPinsOf.get(req);
    if (!pins) {
      pins = devPinsFor(req, { environment, remotes: site.remotes, qaTokens: live.current().qaTokens, secure: viaHttps(req, trusted) });
      for (const { remote, value, reason } of pins.refused) {
        refusedPin(`[netnet] dev pin of ${quote(remote)} refused for ${quote(clientAddress(req, trusted))}: ${quote(value)}: ${quote(reason)}`);
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
  let members = { known: null, map: null };
  const remoteMap = (req) => {
    const known = live.current();
    if (known.error) throw known.error;
    const { pins, token } = devPins(req);
    const qaToken = req.headers['x-netnet-qa-token'] ?? token ?? qaTokenFromCookie(req.headers.cookie) ?? undefined;
    if (qaToken !== undefined || Object.keys(pins).length > 0) return remoteMapFor(environment, known, process.env, { qaToken, devPins: pins });
    if (members.known !== known) members = { known, map: Object.freeze(remoteMapFor(environment, known, process.env)) };
    return members.map;
  };
  // A QA link (?qa-token=…): answered with a redirect to the address without the token, which
  // goes into an HttpOnly cookie, before the page loads anything; dev pins it sets go with it.
  const qaLinks = {
    matches: (req) => (req.method === 'GET' || req.method === 'HEAD') && new URL(req.url ?? '/', 'http://netnet.invalid').searchParams.has('qa-token'),
    async handle(req, res) {
      const { setCookie, refused } = devPins(req);
      // A refused pin stays in the address, so the page can say why (its boot takes it out of the
      // address bar); a pin taken goes into its cookie.
      const wasRefused = (key, value) => refused.some((pin) => key === `remote.${pin.remote}` && pin.value === value);
      const moved = qaTokenRedirect(req.url ?? '/', { secure: viaHttps(req, trusted), isDevPin: (key, value) => isDevPinParam(key, value) && !wasRefused(key, value) });
      if (!moved) return void res.writeHead(400).end();
      res.writeHead(303, { Location: moved.location, 'Set-Cookie': [...moved.cookies, ...(setCookie ? [setCookie] : [])], 'Cache-Control': 'no-store' });
      res.end();
    },
  };
  // Release-health tickets: several servers share the secret; `npm start` makes one up per start.
  // A page gets its ticket once it runs (POST /health/ticket), never with its HTML or its map.
  const secrets = ticketSecrets({ local: environment !== 'production' });
  const pageServer = require(join(root, 'shell/dist/server/pageServer.js'));
  const tickets = createTicketService({
    secrets,
    identityOf: pageServer.identityOf,
    releasesFor: (req, identity) => pageServer.ticketReleasesOf(remoteMap(req), identity),
  });
  const health = createHealthStore({ db: store.pool, environment });
  const collector = createCollector({ store: health, secrets, isKnownRelease: knownReleases(live) });
  // Each release's server build renders in processes of its own, never in this one
  // (docs/sandbox.md).
  const areas = ssr ? pageServer.createSandboxedPool({ serverBuild: join(root, 'shell/dist/server'), config: site.runtimeConfig() }) : undefined;
  const pages = ssr
    ? pageServer.createPageServer({
        template: readFileSync(join(root, 'shell/dist/index.html'), 'utf8'),
        config: site.runtimeConfig(),
        remoteMap,
        areas,
        // What the server saw fail itself counts, for the request's device and network.
        onServerFallback: ({ remote, version, channel }, { member, device }, req) =>
          void collector.recordServerFallback({ remote, release: version, channel }, deviceTag(secrets, member ?? device), req).catch((error) => {
            console.warn(`[health] a fallback on the server was not counted: ${error.message}`);
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
  await pages?.warmUp().catch((error) => console.warn(`Server rendering starts cold: ${error.message}`));
  if (pages) mapChanged = () => pages.followMap();
  const server = await serveApp({
    dir: join(root, 'shell/dist'),
    port,
    spa: true,
    // The server's own code is not for browsers.
    only: (path) => !path.startsWith('/server/'),
    documents: { '/config.json': () => site.runtimeConfig(), '/remotes.json': remoteMap },
    pages,
    services: [qaLinks, collector, tickets, createMetrics({ collector, storeState: () => live.state(), renderProcesses: areas && (() => areas.running()) })],
    // Only the documents of a browser with dev pins allow its dev servers.
    devServers: (req) => {
      const { pins } = devPins(req);
      return Object.keys(pins).length ? devPinSources(pins) : null;
    },
  });
  // What the instance's health endpoint tells of the store: the map it serves and how fresh it is.
  server.storeState = () => live.state();
  server.on('close', () => {
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
