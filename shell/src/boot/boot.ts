import { getDefaultStore } from 'jotai';
import { authAtom, loadRuntimeConfig } from '@netnet/shared';
import { loadRemoteMap } from '../federation/lastGoodMap';
import { preloadMemberRemotes, preloadOnIntent, warmPath } from '../federation/preload';
import { registerRollout } from '../federation/registerRollout';
import { startAuth } from '../auth/startAuth';
import { takeRuntimeDocument } from './runtimeDocuments';
import { whenIdle } from './whenIdle';

const HEAD_START_MS = 1500;

/** Everything the shell needs before its first render: runtime config, remote map, auth feed. */
export async function boot(): Promise<void> {
  const [config, remoteMap] = await Promise.all([
    loadRuntimeConfig(takeRuntimeDocument('config')),
    loadRemoteMap(takeRuntimeDocument('remotes')),
  ]);
  registerRollout(remoteMap);

  // Work the first page doesn't need (Firebase when a hint answered, other remotes) waits until
  // that page's code is here and its own data and images have had a head start: idle callbacks
  // alone would fire during the first page's network waits and compete with it.
  let firstPageLoaded = () => {};
  const firstPage = new Promise<void>((resolve) => (firstPageLoaded = resolve));
  const afterFirstPage = (run: () => void) => void firstPage.then(() => setTimeout(() => whenIdle(run), HEAD_START_MS));

  // Auth resolves in the background; the shell shows its spinner until the state is known.
  startAuth(config, afterFirstPage);
  const signedIn = () => getDefaultStore().get(authAtom).status === 'authenticated';
  // The page being opened starts loading now, while React renders the shell around it.
  void warmPath(window.location.pathname, signedIn()).then(firstPageLoaded);
  preloadOnIntent(signedIn);
  afterFirstPage(() => signedIn() && preloadMemberRemotes());
}
