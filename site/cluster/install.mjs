// nginx for the front door (docs/deploy.md): Debian's own package and its brotli_static module,
// installed with apt-get the first time, so `npm run start:cluster` and CI need no manual step.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const NGINX = '/usr/sbin/nginx';
/** Where Debian's libnginx-mod-http-brotli-static puts the module our config loads. */
export const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
const PACKAGES = ['nginx', 'libnginx-mod-http-brotli-static'];

/** Installs nginx and its brotli_static module when either is missing; returns nginx's version line. */
export function ensureNginx({ log = console.log } = {}) {
  if (!existsSync(NGINX) || !existsSync(BROTLI_STATIC_MODULE)) {
    if (process.getuid?.() !== 0) {
      throw new Error(`nginx is missing: run \`apt-get update && apt-get install -y ${PACKAGES.join(' ')}\` as root, then start again.`);
    }
    log(`Installing Debian's ${PACKAGES.join(' and ')} (once)…`);
    // Another engineer's or CI's apt-get may hold dpkg's lock for a while: wait for it, not fail.
    const apt = (args) => execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    apt(['update', '-qq']);
    // The package's own service would start on :80 with /etc/nginx's config; ours runs with its own.
    apt(['install', '-y', '-qq', '--no-install-recommends', ...PACKAGES]);
    spawnSync('systemctl', ['disable', '--now', 'nginx'], { stdio: 'ignore' });
    // Without systemd (a container), the package's script may have started it directly.
    spawnSync(NGINX, ['-s', 'quit'], { stdio: 'ignore' });
  }
  // nginx prints its version on stderr.
  return spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr.trim();
}
