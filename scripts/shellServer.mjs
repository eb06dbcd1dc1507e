// The shell as `npm start` serves it: its built files, /config.json and /remotes.json for one
// environment's rollout, every page address answered by the shell's server render
// (docs/architecture.md#server-rendering), and the browsers' release-health reports collected for
// the guard, which can run here too (docs/architecture.md, "Release health"). The e2e suite starts one of its own for a rollout
// environment of its own, so its pages are rendered with that environment's releases.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteMapFor } from '../control-plane/src/deploy/remoteMap.mjs';
import { environmentName } from '../control-plane/src/deploy/rolloutFile.mjs';
import { isPublished } from '../control-plane/src/deploy/tree.mjs';
import { createCollector } from '../control-plane/src/health/collector.mjs';
import { startGuard } from '../control-plane/src/health/guard.mjs';
import { healthDir, openStore } from '../control-plane/src/health/store.mjs';
import { serveApp } from './serve.mjs';

const require = createRequire(import.meta.url);
const site = require('./site.cjs');
const root = fileURLToPath(new URL('..', import.meta.url));

/** Releases a report may name: published ones and each remote's own build. Once known, known for good. */
function knownReleases(env = process.env) {
  const known = new Set(Object.entries(site.remoteMap(env).remotes).map(([remote, { stable }]) => `${remote} ${stable.version}`));
  return (remote, release) => {
    const key = `${remote} ${release}`;
    if (known.has(key)) return true;
    if (!isPublished(remote, release, env)) return false;
    known.add(key);
    return true;
  };
}

/**
 * @param {{ port: number, environment?: string, ssr?: boolean, guard?: false | { stages?: number[], intervalMs?: number } }} options
 *   environment: whose rollout file /remotes.json and the pages use (default: NETNET_ENV, else local).
 *   ssr: false serves the shell's index.html alone, the browser rendering everything (NETNET_SSR=off).
 *   guard: run the release guard on this environment's canaries (control-plane/src/health/guard.mjs) with the
 *   reports collected here; false: collect only.
 * @returns {Promise<import('node:http').Server>} closing it stops the guard and closes the store
 */
export async function serveShell({ port, environment = environmentName(), ssr = process.env.NETNET_SSR !== 'off', guard = false }) {
  // Read per request, so a rollout change reaches members on their next page load.
  // A QA token (production pins) comes as a header, never in a URL a cache or a log keeps.
  const remoteMap = (req) => remoteMapFor(environment, process.env, { qaToken: req.headers['x-netnet-qa-token'] });
  const pages = ssr
    ? require(join(root, 'shell/dist/server/pageServer.js')).createPageServer({
        template: readFileSync(join(root, 'shell/dist/index.html'), 'utf8'),
        config: site.runtimeConfig(),
        remoteMap,
      })
    : undefined;
  // The server builds of the releases members get now load before the shell answers, so the first
  // renders after a start are not left to the browser.
  await pages?.warmUp().catch((error) => console.warn(`Server rendering starts cold: ${error.message}`));
  // Release health is not needed to serve a page: a store that cannot be opened (a damaged
  // snapshot, a full disk) leaves the site up without it, and says so.
  const store = await openStore({ dir: healthDir(environment) }).catch((error) => {
    console.warn(`Release health is off: ${healthDir(environment)} could not be opened (${error.message}).`);
    return null;
  });
  const collector = store && createCollector({ store, isKnownRelease: knownReleases() });
  const stopGuard =
    collector && guard
      ? startGuard({ environment, figures: collector.figures(), ...guard, log: (line) => console.log(`[guard] ${line}`) })
      : () => {};
  const server = await serveApp({
    dir: join(root, 'shell/dist'),
    port,
    spa: true,
    // The server's own code is not for browsers.
    only: (path) => !path.startsWith('/server/'),
    documents: { '/config.json': () => site.runtimeConfig(), '/remotes.json': remoteMap },
    pages,
    services: collector ? [collector] : [],
  });
  server.on('close', () => {
    stopGuard();
    collector?.close();
    void store?.close();
  });
  return server;
}
