import { loadRuntimeConfig } from '@netnet/shared';
import { loadRemoteMap } from '../federation/lastGoodMap';
import { registerRollout } from '../federation/registerRollout';
import { startAuth } from '../auth/startAuth';

/** Everything the shell needs before its first render: runtime config, remote map, auth feed. */
export async function boot(): Promise<void> {
  const [config, remoteMap] = await Promise.all([loadRuntimeConfig(), loadRemoteMap()]);
  registerRollout(remoteMap);
  // Auth resolves in the background; the shell shows its spinner until the state is known.
  startAuth(config);
}
