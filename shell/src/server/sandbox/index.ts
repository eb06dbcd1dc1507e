import type { RuntimeConfig } from '@netnet/shared';
import { createRenderPool, type PoolOptions, type RenderPool } from './pool';
import { sandboxFolder, sandboxUser, startRenderProcess } from './renderProcess';

export { AreaRenderError, type AreaRequest, type RenderPool } from './pool';

/** A render process's heap, in MB: a page needs a few; a leak ends the process, not the server. */
export const RENDER_HEAP_MB = 192;

/**
 * The render pool of one shell server: releases' server builds load and render in processes of
 * their own, started from the render process script in `serverBuild` (the shell's dist/server/).
 */
export function createSandboxedPool({ serverBuild, config, log, ...options }: { serverBuild: string; config: RuntimeConfig } & Omit<PoolOptions, 'spawn' | 'config'>): RenderPool {
  const folder = sandboxFolder(serverBuild);
  const user = sandboxUser(log);
  const pool = createRenderPool({ ...options, config, log, spawn: () => startRenderProcess({ dir: folder.dir, script: folder.script, user, heapMb: RENDER_HEAP_MB }) });
  return {
    ...pool,
    close() {
      pool.close();
      folder.remove();
    },
  };
}
