import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RemoteName } from '@netnet/shared/pages';

// How a release's render process is started (docs/sandbox.md). The boundary is the operating
// system's, through bubblewrap (the sandbox Flatpak uses):
// - new network, PID, IPC, UTS and cgroup namespaces: no socket but its own empty loopback, no other
//   process to see or signal, no shared memory with anyone;
// - a read-only root holding only Node, the libraries it links and the render script's folder;
// - no capabilities, a session of its own, gone with its parent;
// - one OS user per area where the server is root, so no two areas share a uid even outside;
// - no environment at all, and a heap limit.
// Inside, Node's permission model is a second layer: it may read its own folder and nothing else,
// write nothing, start no process, thread or addon. The channel to the server is two pipes:
// stdin in, descriptor 3 out (./frames.ts); stdout and stderr are its log.

// Node 20 names the permission model --experimental-permission; later versions --permission.
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';

/** Where the render script's folder is seen inside the sandbox. */
const INSIDE = '/render';

export interface SandboxUser {
  uid: number;
  gid: number;
  name: string;
}

/** Whether this machine can sandbox render processes, and if not, why. */
export type SandboxSupport = { available: true; bwrap: string; binds: string[] } | { available: false; why: string };

const BWRAP_PLACES = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

/** The files Node needs to start: its binary and the shared libraries it links (from ldd). */
function nodeFiles(): string[] {
  const files = new Set<string>([process.execPath]);
  const listing = execFileSync('ldd', [process.execPath], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  for (const line of listing.split('\n')) {
    const path = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line)?.[1];
    if (path) files.add(path);
  }
  return [...files];
}

/** Bind arguments that put each file at its own path, read-only (a symlink's target is what is bound). */
const bindsOf = (files: string[]) => files.flatMap((file) => ['--ro-bind', realpathSync(file), file]);

let support: SandboxSupport | undefined;

/**
 * Checks once, by starting Node in it, that bubblewrap runs here: it needs user namespaces (or
 * root). Not available on macOS, in a container that forbids them, or without Debian's bubblewrap.
 */
export function sandboxSupport(): SandboxSupport {
  if (support) return support;
  const bwrap = BWRAP_PLACES.find((place) => existsSync(place));
  if (!bwrap) return (support = { available: false, why: 'bubblewrap is not installed (apt-get install bubblewrap)' });
  try {
    const binds = bindsOf(nodeFiles());
    const out = execFileSync(bwrap, [...namespaceArgs(), ...binds, process.execPath, '-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8', env: {}, timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
    if (out.trim() !== '2') throw new Error(`the probe saw pid ${out.trim() || 'nothing'}, not a PID namespace of its own`);
    return (support = { available: true, bwrap, binds });
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim() || (error instanceof Error ? error.message : String(error));
    return (support = { available: false, why: `bubblewrap cannot start a sandbox here (${detail.split('\n')[0]})` });
  }
}

function namespaceArgs(): string[] {
  return ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'render', '--dev', '/dev', '--proc', '/proc'];
}

/** The OS user an area's render processes run as when the server is root: netnet-render-title for remote-title. */
export const areaUserName = (remote: RemoteName | string): string => `netnet-render-${remote.replace(/^remote-/, '')}`;

const idOf = (flag: '-u' | '-g', name: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());

const users = new Map<string, SandboxUser | undefined>();

/**
 * The user to run `remote`'s render processes as: undefined when this server is not root (they
 * share its user; the namespaces keep them apart); else the area's own, made once if missing.
 * Throws when it cannot be made: an area never falls back to a user another area has.
 */
export function areaUser(remote: RemoteName | string): SandboxUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const name = areaUserName(remote);
  if (users.has(name)) return users.get(name);
  const read = () => ({ uid: idOf('-u', name), gid: idOf('-g', name), name });
  let user: SandboxUser;
  try {
    user = read();
  } catch {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', name], { stdio: 'ignore' });
    } catch {
      // Made meanwhile by another server on this machine (the API's check, another instance): read it.
    }
    user = read();
  }
  users.set(name, user);
  return user;
}

/**
 * A folder of the render process's own code, copied out of the build: readable by the area users
 * whatever the checkout's permissions, and the only folder the process sees besides Node.
 */
export function sandboxFolder(serverBuild: string): { dir: string; script: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'netnet-render-'));
  for (const file of readdirSync(serverBuild)) {
    if (!file.endsWith('.js') || file === 'pageServer.js') continue;
    copyFileSync(join(serverBuild, file), join(dir, file));
    chmodSync(join(dir, file), 0o444);
  }
  chmodSync(dir, 0o755);
  return { dir, script: 'renderWorker.js', remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface StartOptions {
  /** The folder holding the render script (sandboxFolder). */
  dir: string;
  /** The script's file name in `dir`. */
  script: string;
  user: SandboxUser | undefined;
  heapMb: number;
  support: Extract<SandboxSupport, { available: true }>;
}

/** Starts one render process in its sandbox; it waits for its `load` frame on stdin. */
export function startRenderProcess({ dir, script, user, heapMb, support: { bwrap, binds } }: StartOptions): ChildProcess {
  const node = [process.execPath, PERMISSION_FLAG, `--allow-fs-read=${INSIDE}/*`, `--max-old-space-size=${heapMb}`, '--no-warnings', `${INSIDE}/${script}`];
  return spawn(bwrap, [...namespaceArgs(), ...binds, '--ro-bind', dir, INSIDE, '--chdir', INSIDE, ...node], {
    env: {},
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    ...(user && { uid: user.uid, gid: user.gid }),
  });
}

/**
 * The processes a render process is made of outside its namespace (bubblewrap's and Node's), for
 * signals and priorities that must reach Node itself: read once from /proc's parent links.
 */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [pid];
  for (let at = 0; at < tree.length; at += 1) tree.push(...(children.get(tree[at]!) ?? []));
  return tree;
}
