import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { integrityOf } from './integrity';

// Federation behaviour kept out of page code: one polite retry for a remote's manifest and entry,
// a bounded wait, and a readable record of failures that monitoring can listen to.

const MANIFEST_TIMEOUT_MS = 8000;
const RETRY_DELAY_MS = 400;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fetchWithTimeout(url: string, init: RequestInit): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), MANIFEST_TIMEOUT_MS);
  try {
    // A manifest the map vouched for must be the published one (./integrity.ts).
    const integrity = integrityOf(url);
    return await fetch(url, { ...init, ...(integrity && { integrity }), cache: 'no-cache', signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

export interface RemoteFailure {
  remote: string;
  id: string;
  message: string;
}

export function reportRemoteFailure(failure: RemoteFailure): void {
  console.warn(`[netnet] ${failure.remote} failed to load (${failure.id}): ${failure.message}`);
  window.dispatchEvent(new CustomEvent<RemoteFailure>('netnet:remote-error', { detail: failure }));
}

export default function retryPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'netnet-retry',
    async fetch(url, init) {
      try {
        const response = await fetchWithTimeout(url, init);
        if (response.ok || response.status < 500) return response;
      } catch {
        // Network error or timeout: fall through to the one retry.
      }
      await delay(RETRY_DELAY_MS);
      return fetchWithTimeout(url, init);
    },
    loadEntryError({ getRemoteEntry, origin, remoteInfo, remoteEntryExports, globalLoading, uniqueKey }) {
      // The failed load is still registered; drop it so the retry really fetches again.
      delete globalLoading[uniqueKey];
      const retried = delay(RETRY_DELAY_MS).then(() => getRemoteEntry({ origin, remoteInfo, remoteEntryExports }));
      // The hook's type declares a nested promise; the runtime awaits whatever it gets.
      return retried as never;
    },
    // Reported once per failed request, after every hook had its say: a load that another plugin
    // recovered (a canary replaced by stable) is not an outage. The error itself goes on to the
    // area's error boundary, which offers Retry.
    afterLoadRemote({ id, error, recovered, remote }) {
      if (!error || recovered) return;
      reportRemoteFailure({
        remote: remote?.name ?? id.split('/')[0] ?? id,
        id,
        message: error instanceof Error ? error.message : String(error),
      });
    },
  };
}
