import { useSyncExternalStore } from 'react';
import type { RemoteName } from '../federation/remotes';
import type { Channel } from '@netnet/rollout';
import type { Overrides } from './overrides';

// What this page loaded, for people rather than for the loader: the ?debug footer, the QA banner,
// and window['netnet:remotes'] for support and monitoring scripts.

export interface RemoteStatus {
  version: string;
  channel: Channel;
  entry: string;
  bucket: number;
  state: 'chosen' | 'loaded';
  /** What the loaded build says it is (its manifest's build version). */
  buildVersion?: string;
  /** Set when the chosen canary or pin failed and stable was loaded instead. */
  /** `counted`: the server saw the failure and counted it itself, so the page's reports leave it out. */
  fellBackFrom?: { version: string; channel: Channel; reason: string; counted?: true };
}

export interface RolloutStatus {
  debug: boolean;
  overrides: Overrides;
  /** Pins this page was asked for but the map does not allow (told to QA, not loaded). */
  refusedPins: Overrides;
  /** Remote → the developer's dev server this browser loads it from (docs/releases.md). */
  devServers: Partial<Record<RemoteName, string>>;
  /** The page's query when it asked for a dev server pin, else '' (overrides.ts, PagePins). */
  askedDevPins: string;
  remotes: Partial<Record<RemoteName, RemoteStatus>>;
}

declare global {
  interface Window {
    'netnet:remotes'?: RolloutStatus['remotes'];
  }
}

let status: RolloutStatus = { debug: false, overrides: {}, refusedPins: {}, devServers: {}, askedDevPins: '', remotes: {} };
const listeners = new Set<() => void>();

function publish(next: RolloutStatus): void {
  status = next;
  window['netnet:remotes'] = next.remotes;
  listeners.forEach((listener) => listener());
}

export function startRolloutStatus({
  debug,
  overrides,
  refusedPins = {},
  devServers = {},
  askedDevPins = '',
}: Pick<RolloutStatus, 'debug' | 'overrides'> & Partial<Pick<RolloutStatus, 'refusedPins' | 'devServers' | 'askedDevPins'>>): void {
  publish({ debug, overrides, refusedPins, devServers, askedDevPins, remotes: {} });
}

export function recordRemote(remote: RemoteName, update: Partial<RemoteStatus>): void {
  const current = status.remotes[remote];
  const merged = { ...current, ...update } as RemoteStatus;
  publish({ ...status, remotes: { ...status.remotes, [remote]: merged } });
}

export const getRolloutStatus = (): RolloutStatus => status;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// What a server render shows, and so what hydration starts from: no debug footer, no pins.
const SERVER_STATUS: RolloutStatus = { debug: false, overrides: {}, refusedPins: {}, devServers: {}, askedDevPins: '', remotes: {} };

export function useRolloutStatus(): RolloutStatus {
  return useSyncExternalStore(subscribe, getRolloutStatus, () => SERVER_STATUS);
}
