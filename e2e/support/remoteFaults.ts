import type { Page, Route } from '@playwright/test';
import { originOf } from './site';

// Ways a remote can be unavailable, injected on its own origin only: the shell, the catalogue and
// the other remotes are untouched, which is what failure isolation has to prove.

/** A remote named as in the site table ('remote-title'). */
export type RemoteName = string;

export const remoteFaults = ['connection refused', 'manifest 404', 'chunk 500', 'chunk throws', 'entry hangs'] as const;
export type RemoteFault = (typeof remoteFaults)[number] | 'manifest hangs' | 'entry throws';

/** The one error a chunk that throws on evaluation raises in the page (each attempt raises it again). */
export const INJECTED_ERROR = 'boom: injected by the faults suite';

export interface InjectedFault {
  /** How many requests the fault has answered so far. */
  readonly hits: number;
  /** The requests for each file (URL) that met the fault. */
  hitsByFile(): Map<string, number>;
  /** From now on the connection is down: held requests and later ones fail at once. */
  cutConnection(): Promise<void>;
  /** The remote is back: later requests reach it. */
  restore(): Promise<void>;
}

// The page's code: every script but the entry (its exposed chunk, e.g.
// __federation_expose_MovieDetail.3d040ad71a.js, and the chunks it shares with the remote's other
// pages, which may hold all of a small page's code). The entry and manifest load fine, then the
// page itself fails.
const isPageCode = (path: string) => /\.js$/.test(path) && path !== '/remoteEntry.js';

const targets: Record<RemoteFault, (path: string) => boolean> = {
  'connection refused': () => true,
  'manifest 404': (path) => path === '/mf-manifest.json',
  'manifest hangs': (path) => path === '/mf-manifest.json',
  'chunk 500': isPageCode,
  'chunk throws': isPageCode,
  'entry hangs': (path) => path === '/remoteEntry.js',
  'entry throws': (path) => path === '/remoteEntry.js',
};

export async function breakRemote(page: Page, remote: RemoteName, fault: RemoteFault): Promise<InjectedFault> {
  const origin = originOf(remote);
  const targeted = targets[fault];
  const matches = (url: URL) => url.origin === origin && targeted(url.pathname);
  const held: Route[] = [];
  const byFile = new Map<string, number>();
  let hits = 0;
  let cut = false;

  const handler = async (route: Route) => {
    hits++;
    const url = route.request().url();
    byFile.set(url, (byFile.get(url) ?? 0) + 1);
    if (cut) return route.abort('connectionreset');
    switch (fault) {
      case 'connection refused':
        return route.abort('connectionrefused');
      case 'manifest 404':
        return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
      case 'chunk 500':
        return route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' });
      case 'chunk throws':
      case 'entry throws':
        return route.fulfill({
          status: 200,
          contentType: 'text/javascript',
          headers: { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' },
          body: `throw new Error(${JSON.stringify(INJECTED_ERROR)});`,
        });
      case 'entry hangs':
      case 'manifest hangs':
        // Never answered: the request stays open until the page gives up or the connection is cut.
        held.push(route);
        return;
    }
  };
  await page.route(matches, handler);

  const dropHeld = async () => {
    // A request the page already gave up on cannot be aborted any more; that is fine.
    for (const route of held.splice(0)) await route.abort('connectionreset').catch(() => undefined);
  };
  return {
    get hits() {
      return hits;
    },
    hitsByFile: () => new Map(byFile),
    async cutConnection() {
      cut = true;
      await dropHeld();
    },
    async restore() {
      await page.unroute(matches, handler);
      await dropHeld();
    },
  };
}
