import { createServer, type Server } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyBuildAs, rewriteServerPages } from './buildCopy.mjs';
import { API } from './controlPlaneApi';
import site from '@netnet/site';

// remote-title releases whose server build does something a team's code must not be able to do
// (docs/sandbox.md), for the hostile-release specs. Each is the real build with a few lines added
// to server/remoteEntry.js: its pages render as always, but from the fifth render of a render
// process on (past its warm-up and the upload's check, as a build that waits before it strikes
// would), each render first does the hostile thing. A render process has no network: what the
// build got comes back in the HTML it renders, under the build's name (readReports), and each
// build says exactly what it must have got, so a pass is never for want of an attack.

export interface HostileBuild {
  name: string;
  /** Code run at every render past `strikeAfter` (4); `report(value)` puts `value` into the page. */
  onRender?: string;
  /** Code run once when the build is loaded, before anything else of it. */
  atImport?: string;
  strikeAfter?: number;
  /** What the publish says: 201, or 422 with a refusal matching `refusal`. */
  published: 201 | 422;
  refusal?: RegExp;
  /** Its reports, merged: exactly these (a build whose render returns); `__VERSION__` stands for its version. */
  reports?: Record<string, unknown>;
  /** It ends or stalls its process: what the server logs of it, after which its area falls back. */
  stops?: RegExp;
}

/** What the builds aim at: the servers of the running site and a listener of the spec's own. */
export interface Targets {
  run: string;
  /** The shell the spec asks for pages (its port). */
  sitePort: number;
  /** A TCP listener of the spec's (tcpListener): it must see no connection from any build. */
  listenerPort: number;
  /** Processes outside the sandbox: the servers and the other areas' render processes. */
  pids: number[];
  /** The public path a member's render of `version` is given. */
  publicPathOf(version: string): string;
}

const root = join(__dirname, '..', '..');
/** Where the store's files and socket live (the embedded PostgreSQL), and files of the shell's server. */
const { deployDir } = site.readSite();
const STORE_DIR = join(deployDir, '.database');
const SHELL_FILES = [join(root, 'site', 'table.cjs'), join(root, 'shell', 'dist', 'server', 'pageServer.js'), join(root, 'package.json')];

/** The store's Unix socket, as the spec finds it: the build is told where to knock. */
function storeSocket(): string {
  const name = existsSync(STORE_DIR) ? readdirSync(STORE_DIR).find((file) => file.startsWith('.s.PGSQL.') && !file.endsWith('.lock')) : undefined;
  return join(STORE_DIR, name ?? '.s.PGSQL.5432');
}

/** Code that runs `each(item)` for every item and reports `{ [key]: [item + ': ' + outcome] }`, outcome the error's code. */
const eachCode = (key: string, items: unknown[], attempt: string) =>
  `report({ ${key}: ${JSON.stringify(items)}.map(function (item) { try { ${attempt}; return item + ': ALLOWED'; } catch (e) { return item + ': ' + ((e.info && e.info.code) || e.code || e.message); } }) });`;

/** Code that connects to each port (from `localAddress` when given) and reports each outcome under `key` once all are in. */
const connectCode = (key: string, targets: { port: number; localAddress?: string }[]) => `(function () {
  var outcomes = [];
  ${JSON.stringify(targets)}.forEach(function (target) {
    var c = require('net').connect(Object.assign({ host: '127.0.0.1' }, target));
    var done = function (what) { outcomes.push(target.port + (target.localAddress ? ' from ' + target.localAddress : '') + ': ' + what); if (outcomes.length === ${targets.length}) report({ ${key}: outcomes.sort() }); };
    c.on('connect', function () { done('CONNECTED'); c.destroy(); });
    c.on('error', function (e) { done(e.code); });
  });
})();`;

/** Garbage into every descriptor a process may hold. */
const GARBAGE = `for (var fd = 0; fd < 64; fd += 1) { try { require('fs').writeSync(fd, 'x\\n'); } catch (e) {} }`;

export function hostileBuilds({ run, sitePort, listenerPort, pids, publicPathOf }: Targets): HostileBuild[] {
  const outsideFiles = ['/etc/shadow', '/etc/passwd', join(STORE_DIR, 'pg_hba.conf'), join(STORE_DIR, 'postmaster.opts'), ...SHELL_FILES];
  const writes = [`/tmp/netnet-hostile-${run}.txt`, join(deployDir, `hostile-${run}.txt`)];
  const servers = [sitePort, listenerPort, Number(new URL(API).port), site.ports.authEmulator!, site.ports.catalogue!, 5432];
  const tcp: { port: number; localAddress?: string }[] = [...servers.map((port) => ({ port })), ...[1, 2, 3, 4, 5, 6].map((network) => ({ port: listenerPort, localAddress: `127.${network}.0.9` }))];
  const fetches = [
    { url: `http://127.0.0.1:${sitePort}/metrics`, method: 'GET' },
    { url: `http://127.0.0.1:${sitePort}/health/ticket`, method: 'POST' },
    { url: `http://127.0.0.1:${site.ports.authEmulator}/emulator/v1/projects/demo-netnet/accounts`, method: 'GET' },
    { url: `http://127.0.0.1:${listenerPort}/`, method: 'GET' },
  ];
  const refused = (reason: string) => (item: string | number) => `${item}: ${reason}`;
  return [
    { name: 'reads process.env', onRender: `report({ env: Object.assign({}, process.env) });`, published: 201, reports: { env: {} } },
    {
      name: 'reads files outside its release',
      onRender: eachCode('files', outsideFiles, `require('fs').readFileSync(item)`),
      published: 201,
      reports: { files: outsideFiles.map(refused('ERR_ACCESS_DENIED')) },
    },
    { name: 'writes files', onRender: eachCode('writes', writes, `require('fs').writeFileSync(item, 'pwned')`), published: 201, reports: { writes: writes.map(refused('ERR_ACCESS_DENIED')) } },
    { name: 'spawns a process', onRender: eachCode('spawn', ['id'], `require('child_process').execSync(item)`), published: 201, reports: { spawn: ['id: ERR_ACCESS_DENIED'] } },
    {
      name: "opens the store's socket",
      onRender: `${eachCode('storeDir', [STORE_DIR], `require('fs').readdirSync(item)`)}
        var c = require('net').connect({ path: ${JSON.stringify(storeSocket())} });
        c.on('connect', function () { report({ socket: 'CONNECTED' }); c.destroy(); });
        c.on('error', function (e) { report({ socket: e.code }); });`,
      published: 201,
      // Not even there: the sandbox's root holds Node and its script alone.
      reports: { storeDir: [`${STORE_DIR}: ERR_ACCESS_DENIED`], socket: 'ENOENT' },
    },
    {
      name: 'connects to the site, the API, the emulator, the store and a listener, from many addresses',
      onRender: connectCode('tcp', tcp),
      published: 201,
      reports: { tcp: tcp.map(({ port, localAddress }) => `${port}${localAddress ? ` from ${localAddress}` : ''}: ECONNREFUSED`).sort() },
    },
    {
      name: 'fetches tickets, /metrics and the emulator’s accounts',
      onRender: `(function () { var got = []; ${JSON.stringify(fetches)}.forEach(function (call) {
        fetch(call.url, { method: call.method }).then(function (r) { got.push(call.method + ' ' + call.url + ': HTTP ' + r.status); }, function (e) { got.push(call.method + ' ' + call.url + ': ' + (e.cause ? e.cause.message : e.message)); })
          .then(function () { if (got.length === ${fetches.length}) report({ fetches: got.sort() }); });
      }); })();`,
      published: 201,
      reports: {
        fetches: fetches
          .map(({ url, method }) => `${method} ${url}: ${method === 'GET' ? 'refused: not the catalogue' : 'a render process makes catalogue GETs only'}`)
          .sort(),
      },
    },
    {
      name: 'signals and lowers the servers and the other areas’ render processes',
      onRender: `${eachCode('signal0', pids, `process.kill(item, 0)`)} ${eachCode('kill', pids, `process.kill(item, 'SIGKILL')`)} ${eachCode('priority', pids, `require('os').setPriority(item, 19)`)}`,
      published: 201,
      reports: { signal0: pids.map(refused('ESRCH')), kill: pids.map(refused('ESRCH')), priority: pids.map(refused('ESRCH')) },
    },
    {
      name: 'compares its init() options with a member’s',
      // From its first render on, the check's included: it renders only where it is given what a member's render is.
      strikeAfter: 0,
      onRender: `if (!hostile.initOptions || hostile.initOptions.netnetPublicPath !== ${JSON.stringify(publicPathOf('__VERSION__'))}) throw new Error('not a member: ' + (hostile.initOptions && hostile.initOptions.netnetPublicPath)); if (!hostile.reports.length) report({ publicPath: hostile.initOptions.netnetPublicPath });`,
      published: 201,
      reports: { publicPath: publicPathOf('__VERSION__') },
    },
    { name: 'rejects a promise nobody awaits', onRender: `if (!hostile.reports.length) report({ rejected: 'once' }); Promise.reject(new Error('nobody awaits this'));`, published: 201, reports: { rejected: 'once' } },
    {
      name: 'patches Object.prototype and shared globals',
      onRender: `if (!hostile.reports.length) report({ patched: 'prototype, fetch, JSON' }); Object.prototype.hostileMark = 'HOSTILE-PROTOTYPE'; globalThis.fetch = function () { return Promise.reject(new Error('HOSTILE-FETCH')); }; JSON.stringify = function () { return '"HOSTILE-JSON"'; };`,
      published: 201,
      reports: { patched: 'prototype, fetch, JSON' },
    },
    { name: 'loops forever in render', onRender: `for (;;) {}`, published: 201, stops: /did not answer a render within \d+ ms and was stopped/ },
    { name: 'allocates without bound', onRender: `var kept = []; for (;;) kept.push(new Array(1e6).fill(kept.length));`, published: 201, stops: /its render process exited \((code \d+|SIGABRT|SIGTRAP|SIGKILL)\)|did not answer a render within/ },
    { name: 'calls process.exit', onRender: `process.exit(7);`, published: 201, stops: /its render process exited \(code 7\)/ },
    { name: 'writes garbage into every descriptor at render', onRender: GARBAGE, published: 201, stops: /it broke its render channel/ },
    { name: 'floods its channel with bytes and no frame', onRender: `var flood = Buffer.alloc(1 << 20, 'x'); for (var i = 0; i < 256; i += 1) require('fs').writeSync(3, flood);`, published: 201, stops: /it broke its render channel|its render process exited/ },
    { name: 'throws at import', atImport: `throw new Error('hostile build refuses to load');`, published: 422, refusal: /does not load: hostile build refuses to load/ },
    { name: 'writes garbage into every descriptor at import', atImport: GARBAGE, published: 422, refusal: /broke its render channel/ },
  ];
}

/** remote-title's real build copied as `version` into `copy`, its server build made hostile. */
export function writeHostileBuild(build: Pick<HostileBuild, 'name' | 'onRender' | 'atImport' | 'strikeAfter'>, { version, copy }: { version: string; copy: string }): void {
  copyBuildAs({ root, remote: 'remote-title', version, copy });
  const named = (code?: string) => code?.replaceAll('__VERSION__', version);
  rewriteServerPages({ copy, name: build.name, onRender: named(build.onRender), atImport: named(build.atImport), strikeAfter: build.strikeAfter });
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&#x27;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' };

/** The reports a page's HTML carries, by the name of the build that rendered them. */
export function readReports(html: string): { build: string; reports: Record<string, unknown>[] }[] {
  const found = [];
  for (const match of html.matchAll(/<output hidden="" data-hostile-build="([^"]*)" data-hostile-report="([^"]*)"/g)) {
    const unescape = (text: string) => text.replace(/&(quot|#x27|lt|gt|amp);/g, (entity) => ENTITIES[entity]!);
    found.push({ build: unescape(match[1]!), reports: JSON.parse(unescape(match[2]!)) as Record<string, unknown>[] });
  }
  return found;
}

/** A TCP listener that counts every connection made to it: a build that reached it would be seen. */
export async function tcpListener(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
