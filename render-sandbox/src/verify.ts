import type { RemoteName } from '@netnet/shared/pages';
import type { RenderConfig } from './protocol.ts';
import { createSandboxedPool } from './sandboxedPool.ts';
import { AreaRenderError } from './pool.ts';
import { samplePages } from './samplePages.ts';

// The check a release's server build passes before it is published (the control plane calls it on
// every upload): the build is loaded in a render process started exactly as members' renders are,
// in the same sandbox, handed the same options (its own release address as public path, the site's
// config) and the same catalogue through the same gate, and each page it exposes is rendered once,
// as a member or visitor would open it, within the render deadline. So what passes has been
// initialised and rendered the way members meet it, and a build cannot tell the check from a
// member (docs/sandbox.md). Nothing it writes into its channel can throw in the caller.

export interface VerifyOptions {
  /** The shell's dist/server/, holding the render process script. */
  serverBuild: string;
  remote: RemoteName;
  version: string;
  /** The release's browser manifest URL once published: what members' renders are given. */
  entry: string;
  /** server/remoteEntry.js as uploaded. */
  code: string;
  config: RenderConfig;
  /**
   * Each page's render budget (its deadline is this plus the pool's grace): more than a member's
   * render gets, since the check asks whether the build renders, not how fast a busy machine is.
   */
  budgetMs?: number;
  loadTimeoutMs?: number;
}

/** Resolves when every page of the build rendered without an error; rejects with the first failure, in words. */
export async function verifyServerBuild({ serverBuild, remote, version, entry, code, config, budgetMs = 2_000, loadTimeoutMs = 10_000 }: VerifyOptions): Promise<{ pages: number }> {
  const release = { version, entry };
  const pool = createSandboxedPool({
    serverBuild,
    config,
    size: 1,
    loadTimeoutMs,
    // One try: a build that fails to load or dies is refused, not retried.
    backoffMs: { first: 60_000, max: 60_000 },
    fetchCode: async () => code,
    // What the build writes is its own business here; the answer is the check's outcome.
    log: () => {},
  });
  try {
    await pool.warm(remote, release);
    let pages = 0;
    for (const page of samplePages(remote)) {
      try {
        const result = await pool.render(remote, release, { module: page.module, key: page.key, location: page.location, auth: page.auth, budgetMs });
        // A render cut short met a slow machine or catalogue; a stuck one is stopped by its deadline.
        if (result.errors.length > 0 && !result.cutShort) throw new Error(`threw while rendering: ${result.errors[0]}`);
      } catch (error) {
        const why = error instanceof AreaRenderError ? (error.fault ?? error.message) : error instanceof Error ? error.message : String(error);
        const notLoaded = /^its server build does not load: /.exec(why);
        throw new Error(notLoaded ? `does not load: ${why.slice(notLoaded[0].length)}` : `does not render ${page.module} (${page.path}): ${why}`);
      }
      pages += 1;
    }
    return { pages };
  } finally {
    pool.close();
  }
}
