import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// How a release's render process is started (docs/sandbox.md):
// - no environment at all: no secret, no store address reaches it;
// - where the server runs as root, as an unprivileged user of its own, so the store's socket, the
//   database folder and the server's files are closed to it by the OS;
// - and in any case under Node's permission model: it may read its own script and nothing else,
//   write nothing, start no process, thread or native addon;
// - with a heap limit, so a leak ends the process, not the machine's memory.

// Node 20 names the permission model --experimental-permission; later versions --permission.
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';

/** The user render processes run as when the server is root. */
export const SANDBOX_USER = 'netnet-render';
/** Debian's nobody, when the sandbox's own user cannot be made. */
const NOBODY = { uid: 65534, gid: 65534, name: 'nobody' };

export interface SandboxUser {
  uid: number;
  gid: number;
  name: string;
}

const idOf = (flag: '-u' | '-g', name: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());

/**
 * The user to run render processes as: undefined when this server is not root (the processes share
 * its user, and the permission model is what holds them); else SANDBOX_USER, made once if missing.
 */
export function sandboxUser(log: (line: string) => void = () => {}): SandboxUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      return { uid: idOf('-u', SANDBOX_USER), gid: idOf('-g', SANDBOX_USER), name: SANDBOX_USER };
    } catch {
      if (attempt > 0) break;
      try {
        execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', SANDBOX_USER], { stdio: 'ignore' });
      } catch {
        break;
      }
    }
  }
  log(`render processes run as ${NOBODY.name}: the user ${SANDBOX_USER} could not be made.`);
  return NOBODY;
}

/**
 * A folder of the render process's own code, copied out of the build: readable by the sandbox user
 * whatever the checkout's permissions, and the only thing the process may read.
 */
export function sandboxFolder(serverBuild: string): { dir: string; script: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'netnet-render-'));
  for (const file of readdirSync(serverBuild)) {
    if (!file.endsWith('.js') || file === 'pageServer.js') continue;
    copyFileSync(join(serverBuild, file), join(dir, file));
    chmodSync(join(dir, file), 0o444);
  }
  chmodSync(dir, 0o755);
  return { dir, script: join(dir, 'renderWorker.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface StartOptions {
  dir: string;
  script: string;
  user: SandboxUser | undefined;
  heapMb: number;
}

/** Starts one render process; it waits for its `load` message on the IPC channel. */
export function startRenderProcess({ dir, script, user, heapMb }: StartOptions): ChildProcess {
  return fork(script, [], {
    execArgv: [PERMISSION_FLAG, `--allow-fs-read=${dir}/*`, `--max-old-space-size=${heapMb}`, '--no-warnings'],
    env: {},
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    ...(user && { uid: user.uid, gid: user.gid }),
  });
}
