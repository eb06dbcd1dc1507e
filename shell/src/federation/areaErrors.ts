import type { Channel } from '@netnet/rollout';
import { getRolloutStatus } from '../rollout/rolloutStatus';
import type { RemoteName } from './remotes';
import { isFileLoadError } from './rolloutPlugin';

// A remote's area that gave up (RemotePage's error boundary), told to whoever keeps score: the
// release-health reports (shell/src/health/) and any monitoring script listening for the event.
// Release health starts only after the first page, and the first page's area is the one most
// likely to fail, so the first few are also kept here for it to read when it starts.

export interface AreaError {
  remote: RemoteName;
  /** 'load': the page's code could not be had (after any fallback); 'render': it came and threw. */
  phase: 'load' | 'render';
  /** The release the area was meant to show, as the rollout had it then; null when the map has none. */
  release: { version: string; channel: Channel } | null;
}

export const AREA_ERROR_EVENT = 'netnet:area-error';

// A page whose areas keep failing would otherwise grow this for as long as it stays open.
const MAX_KEPT = 20;
const kept: AreaError[] = [];

/**
 * An area's boundary caught `error`. `loading`: the page's module itself failed to load. A file the
 * page loads later failing is a load failure of the release too; anything else the page threw.
 * Call it before anything re-points the remote, so the error counts against the release it came from.
 */
export function reportAreaError(remote: RemoteName, error: unknown, { loading }: { loading: boolean }): void {
  const status = getRolloutStatus().remotes[remote];
  const detail: AreaError = {
    remote,
    phase: loading || isFileLoadError(error) ? 'load' : 'render',
    release: status ? { version: status.version, channel: status.channel } : null,
  };
  if (kept.length < MAX_KEPT) kept.push(detail);
  window.dispatchEvent(new CustomEvent<AreaError>(AREA_ERROR_EVENT, { detail }));
}

/** The areas that failed in this page so far (the first few). */
export const areaErrorsSoFar = (): readonly AreaError[] => kept;
