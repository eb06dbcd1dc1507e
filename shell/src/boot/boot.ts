import { getDefaultStore } from 'jotai';
import { authAtom, loadRuntimeConfig } from '@netnet/shared';
import { loadRemoteMap } from '../federation/lastGoodMap';
import { preloadMemberRemotes, preloadOnIntent, warmPath } from '../federation/preload';
import { registerRollout } from '../federation/registerRollout';
import { startAuth } from '../auth/startAuth';
import { takeRuntimeDocument } from './runtimeDocuments';
import { whenIdle } from './whenIdle';

/** Everything the shell needs before its first render: runtime config, remote map, auth feed. */
export async function boot(): Promise<void> {
  const [config, remoteMap] = await Promise.all([
    loadRuntimeConfig(takeRuntimeDocument('config')),
    loadRemoteMap(takeRuntimeDocument('remotes')),
  ]);
  registerRollout(remoteMap);
  // Auth resolves in the background; the shell shows its spinner until the state is known.
  startAuth(config);

  const signedIn = () => getDefaultStore().get(authAtom).status === 'authenticated';
  // The page being opened starts loading now, while React renders the shell around it.
  warmPath(window.location.pathname, signedIn());
  preloadOnIntent(signedIn);
  whenIdle(() => signedIn() && preloadMemberRemotes(), 3000);
}
