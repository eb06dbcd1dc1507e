// The shell as `npm start` serves it: its built files, /config.json and /remotes.json for one
// environment's rollout, and every page address answered by the shell's server render
// (docs/architecture.md#server-rendering). The e2e suite starts one of its own for a rollout
// environment of its own, so its pages are rendered with that environment's releases.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteMapFor } from './deploy/remoteMap.mjs';
import { environmentName } from './deploy/rolloutFile.mjs';
import { serveApp } from './serve.mjs';

const require = createRequire(import.meta.url);
const site = require('./site.cjs');
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * @param {{ port: number, environment?: string, ssr?: boolean }} options
 *   environment: whose rollout file /remotes.json and the pages use (default: NETNET_ENV, else local).
 *   ssr: false serves the shell's index.html alone, the browser rendering everything (NETNET_SSR=off).
 * @returns {Promise<import('node:http').Server>}
 */
export async function serveShell({ port, environment = environmentName(), ssr = process.env.NETNET_SSR !== 'off' }) {
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
  return serveApp({
    dir: join(root, 'shell/dist'),
    port,
    spa: true,
    // The server's own code is not for browsers.
    only: (path) => !path.startsWith('/server/'),
    documents: { '/config.json': () => site.runtimeConfig(), '/remotes.json': remoteMap },
    pages,
  });
}
