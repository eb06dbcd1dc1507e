import { getDefaultStore } from 'jotai';
import { authAtom, loadRuntimeConfig, seedCatalogueCache, setRuntimeConfig } from '@netnet/shared';
import { loadRemoteMap } from '../federation/lastGoodMap';
import { warmPath } from '../federation/preload';
import { registerRollout } from '../federation/registerRollout';
import { parseRemoteMap } from '../federation/remoteMap';
import { pageAt } from '../pages';
import { startAuth } from '../auth/startAuth';
import { loadMemberFrame } from '../layout/memberFrame';
import { takeRuntimeDocument } from './runtimeDocuments';
import type { ServerState } from './serverState';
import { whenIdle } from './whenIdle';

const HEAD_START_MS = 1500;

/**
 * Everything the shell needs before its first render: runtime config, remote map, auth feed, and
 * for a member the members' frame.
 * A page the server rendered brings them (`server`): nothing is fetched, and the releases, the
 * member and the catalogue answers are the ones the page was rendered with.
 */
export async function boot(server: ServerState | null = null): Promise<void> {
  let config;
  if (server) {
    config = server.config;
    setRuntimeConfig(config);
    registerRollout(parseRemoteMap(server.map), { chosen: server.chosen });
    seedCatalogueCache(server.catalogue);
  } else {
    const [loaded, remoteMap] = await Promise.all([
      loadRuntimeConfig(takeRuntimeDocument('config')),
      loadRemoteMap(takeRuntimeDocument('remotes')),
    ]);
    config = loaded;
    registerRollout(remoteMap);
  }

  // Work the first page doesn't need (Firebase when a hint answered, other remotes) waits until
  // that page's code is here and its own data and images have had a head start: idle callbacks
  // alone would fire during the first page's network waits and compete with it.
  let firstPageLoaded = () => {};
  const firstPage = new Promise<void>((resolve) => (firstPageLoaded = resolve));
  const afterFirstPage = (run: () => void) => void firstPage.then(() => setTimeout(() => whenIdle(run), HEAD_START_MS));

  // Auth resolves in the background, from the hint at first (the server's, when it rendered).
  startAuth(config, afterFirstPage, server ? server.member : undefined);
  const signedIn = () => getDefaultStore().get(authAtom).status === 'authenticated';
  // The page being opened starts loading now, while React renders the shell around it.
  const firstRemote = pageAt(window.location.pathname, signedIn()).remote;
  void warmPath(window.location.pathname, signedIn()).then(firstPageLoaded);
  // Once the first page is in: links' pages loaded as the pointer or focus reaches them, and a
  // member's other remotes (files only). A chunk of its own: a visitor's first page carries none of it.
  afterFirstPage(
    () =>
      void import(/* webpackChunkName: "preload-later" */ '../federation/preloadLater').then(
        ({ preloadMemberRemotes, preloadOnIntent }) => {
          preloadOnIntent(signedIn);
          if (signedIn()) preloadMemberRemotes();
        },
        () => {},
      ),
  );
  // Release health (its own chunk, web-vitals another) costs the first page nothing; it reads
  // what happened before it from the rollout status. Without it the page simply sends no reports.
  afterFirstPage(
    () =>
      void import(/* webpackChunkName: "release-health" */ '../health/startHealth').then(
        ({ startHealth }) => {
          startHealth({ firstRemote });
        },
        () => {},
      ),
  );
  // A member's first render needs the members' frame (a chunk of its own); a visitor who signs in
  // is shown it at once, fetched once the first page is idle.
  if (signedIn()) await loadMemberFrame();
  else afterFirstPage(() => void loadMemberFrame().catch(() => {}));
}
