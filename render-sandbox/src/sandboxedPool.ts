import type { RemoteName } from '@netnet/shared/pages';
import type { RenderConfig } from './protocol.ts';
import { areaUser, sandboxFolder, sandboxSupport, startRenderProcess } from './launcher.ts';
import { createRenderPool, type PoolOptions, type RenderPool } from './pool.ts';

/** A render process's heap, in MB: a page needs a few; a leak ends the process, not the server. */
export const RENDER_HEAP_MB = 192;

/**
 * The render pool of one server: releases' server builds load and render in sandboxed processes
 * of their own, started from the render script in `serverBuild` (the shell's dist/server/).
 * Throws when this machine cannot sandbox them (sandboxSupport says why): no release's code runs
 * unsandboxed.
 */
export function createSandboxedPool({ serverBuild, config, log, ...options }: { serverBuild: string; config: RenderConfig } & Omit<PoolOptions, 'spawn' | 'config'>): RenderPool {
  const support = sandboxSupport();
  if (!support.available) throw new Error(`release code cannot be sandboxed here: ${support.why}`);
  const folder = sandboxFolder(serverBuild);
  const spawn = (remote: RemoteName) => startRenderProcess({ dir: folder.dir, script: folder.script, user: areaUser(remote), heapMb: RENDER_HEAP_MB, support });
  const pool = createRenderPool({ ...options, config, ...(log && { log }), spawn });
  return {
    ...pool,
    close() {
      pool.close();
      folder.remove();
    },
  };
}
