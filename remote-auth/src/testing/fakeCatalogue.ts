import { clearCatalogueCache, setRuntimeConfig } from '@netnet/shared';

export const CATALOGUE = 'http://catalogue.test';

/** The runtime config the shell would have loaded, and a catalogue cache with nothing in it. */
export function resetTestCatalogue(): void {
  setRuntimeConfig({
    catalogueUrl: CATALOGUE,
    firebase: { apiKey: 'test', authDomain: 'test', projectId: 'demo-netnet' },
    authEmulatorUrl: null,
  });
  clearCatalogueCache();
}

/** Just enough of a Response for the catalogue client (jsdom has no fetch). */
function response(status: number, body: unknown): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: () => null },
    text: () => Promise.resolve(JSON.stringify(body)),
  } as unknown as Response;
}

/** Like a real fetch, a pending call ends when its caller gives up on it. */
function pendingUntilAborted(signal: AbortSignal | null | undefined): Promise<Response> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
  });
}

/** Answers every catalogue call with `status` and `body`, or never when `status` is 'pending'. */
export function stubCatalogue(status: number | 'pending', body: unknown = {}) {
  const fetchMock = jest.fn((_url: string, init?: RequestInit) =>
    status === 'pending' ? pendingUntilAborted(init?.signal) : Promise.resolve(response(status, body)),
  );
  global.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
}
