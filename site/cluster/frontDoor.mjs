// The front door's files on this machine: nginx's prefix under the checkout (.cluster/nginx/, kept
// out of git by its own .gitignore), the generated configuration, and the command that runs it.
// Nothing of the system's /etc/nginx is used but its mime.types.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BROTLI_STATIC_MODULE, NGINX } from './install.mjs';
import { nginxConfig } from './nginxConfig.mjs';

// The checkout whose builds nginx serves.
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Everything the cluster writes at run time: nginx's prefix, its logs, the cluster's state. */
export const clusterDir = join(root, '.cluster');
export const nginxPrefix = join(clusterDir, 'nginx');

/**
 * Writes the configuration for the shell instances on `instancePorts` and checks it with `nginx -t`.
 * `prefix`, `siteRoot` and `ports` default to this checkout's; a test gives its own. `host` and
 * `siteSettings` (the site's origins, for the pages' policy) are the cluster's config's.
 * @returns {{ args: string[], configFile: string }} how to run nginx in the foreground with it
 */
export function prepareNginx({ instancePorts, workers = 1, prefix = nginxPrefix, siteRoot = root, ports, host, siteSettings, limits, frontDoorSecret }) {
  if (prefix === nginxPrefix) {
    mkdirSync(clusterDir, { recursive: true });
    writeFileSync(join(clusterDir, '.gitignore'), '# Written by npm run start:cluster (site/cluster/).\n*\n');
  }
  for (const dir of ['logs', 'temp']) mkdirSync(join(prefix, dir), { recursive: true });
  const configFile = join(prefix, 'nginx.conf');
  // Started as root, nginx would run its workers as `nobody`, which Debian has no group for.
  const user = process.getuid?.() === 0 ? 'www-data' : null;
  const config = nginxConfig({ prefix, root: siteRoot, instances: instancePorts, workers, user, brotliModule: BROTLI_STATIC_MODULE, ports, host, siteSettings, limits, frontDoorSecret });
  writeFileSync(configFile, config);
  const args = ['-p', prefix, '-c', configFile, '-e', join(prefix, 'logs', 'error.log')];
  try {
    execFileSync(NGINX, ['-t', '-q', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`nginx refused the generated ${configFile}:\n${error.stderr?.toString() ?? error.message}`);
  }
  return { args, configFile };
}
