import { createInstance, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { RemoteMap } from './remoteMap';
import rolloutPlugin, { type CanaryFallback } from './rolloutPlugin';
import retryPlugin, { type RemoteFailure } from './retryPlugin';
import { createRemoteVersions } from '../rollout/remoteVersions';
import { getRolloutStatus, startRolloutStatus } from '../rollout/rolloutStatus';
import type { Overrides } from '../rollout/overrides';
import type { Choice } from '@netnet/rollout';
import type { RemoteName } from './remotes';

// The real Module Federation runtime, with a fake CDN in place of script tags: each entry URL
// answers with a container, or fails the way a missing remoteEntry.js does in a browser.

type Container = { init: () => void; get: (expose: string) => Promise<() => unknown> };

const container = (label: string): Container => ({
  init: () => undefined,
  get: async (expose) => () => ({ default: `${label} ${expose}` }),
});

let run = 0;
const cdn = (version: string) => `https://cdn.test/run-${run}/remote-title/${version}/remoteEntry.js`;

function fakeCdn(served: Record<string, Container>, requests: string[]): ModuleFederationRuntimePlugin {
  return {
    name: 'fake-cdn',
    loadEntry({ remoteInfo }) {
      requests.push(remoteInfo.entry);
      const found = served[remoteInfo.entry];
      // RUNTIME-008 is the runtime's "script failed to load": the retry plugin retries it once.
      if (!found) return Promise.reject(new Error(`[ Federation Runtime ]: RUNTIME-008 ${remoteInfo.entry} 404`));
      // Typed as the runtime's own containers, whose get() webpack actually makes async.
      return Promise.resolve(found as never);
    },
  };
}

function setUp({ percent, identity = 'member-1', overrides = {}, chosen, served }: {
  percent: number;
  identity?: string;
  overrides?: Overrides;
  chosen?: (urls: { stable: string; canary: string }) => Partial<Record<RemoteName, Choice>>;
  served: (urls: { stable: string; canary: string }) => Record<string, Container>;
}) {
  run += 1;
  const urls = { stable: cdn('1.3.0'), canary: cdn('1.4.0') };
  const map: RemoteMap = {
    remotes: {
      'remote-title': {
        stable: { version: '1.3.0', entry: urls.stable },
        canary: { version: '1.4.0', entry: urls.canary, percent },
        pinnable: ['1.3.0', '1.4.0', '9.9.9'].map((version) => ({ version, entry: cdn(version) })),
      },
    },
  };
  startRolloutStatus({ debug: false, overrides });
  const requests: string[] = [];
  const versions = createRemoteVersions({ map, overrides, identity: () => identity, chosen: chosen?.(urls) });
  const host = createInstance({
    name: `shell_test_${run}`,
    remotes: [],
    plugins: [fakeCdn(served(urls), requests), retryPlugin(), rolloutPlugin(versions)],
  });
  return { host, requests, urls };
}

const events = <T,>(type: string) => {
  const seen: T[] = [];
  window.addEventListener(type, (event) => seen.push((event as CustomEvent<T>).detail));
  return seen;
};

beforeEach(() => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  jest.spyOn(console, 'error').mockImplementation(() => {});
});

it('registers a remote with the chosen release only when it is first needed', async () => {
  const { host, requests, urls } = setUp({
    percent: 100,
    served: ({ stable, canary }) => ({ [stable]: container('stable'), [canary]: container('canary') }),
  });
  expect(host.options.remotes).toEqual([]);
  await expect(host.loadRemote('remote_title/MovieDetail')).resolves.toEqual({ default: 'canary ./MovieDetail' });
  expect(requests).toEqual([urls.canary]);
  expect(getRolloutStatus().remotes['remote-title']).toMatchObject({ version: '1.4.0', channel: 'canary', state: 'loaded' });
  expect(window['netnet:remotes']?.['remote-title']).toMatchObject({ version: '1.4.0', channel: 'canary' });
});

it('loads the release a server-rendered page was rendered with, whatever this browser would pick', async () => {
  const { host, requests, urls } = setUp({
    percent: 100,
    chosen: ({ stable }) => ({ 'remote-title': { version: '1.3.0', entry: stable, channel: 'stable', bucket: 12 } }),
    served: ({ stable, canary }) => ({ [stable]: container('stable'), [canary]: container('canary') }),
  });
  expect(host.options.remotes).toEqual([]);
  await expect(host.loadRemote('remote_title/MovieDetail')).resolves.toEqual({ default: 'stable ./MovieDetail' });
  await host.loadRemote('remote_title/SeriesDetail');
  expect(requests).toEqual([urls.stable]);
  expect(getRolloutStatus().remotes['remote-title']).toMatchObject({ version: '1.3.0', channel: 'stable', state: 'loaded' });
});

it('a server-chosen canary that fails to load falls back to stable like any other', async () => {
  const { host, requests, urls } = setUp({
    percent: 0,
    chosen: ({ canary }) => ({ 'remote-title': { version: '1.4.0', entry: canary, channel: 'canary', bucket: 12 } }),
    served: ({ stable }) => ({ [stable]: container('stable') }),
  });
  await expect(host.loadRemote('remote_title/MovieDetail')).resolves.toEqual({ default: 'stable ./MovieDetail' });
  expect(requests).toEqual([urls.canary, urls.canary, urls.stable]);
});

it('keeps the choice for the page: later pages of the remote come from the same release', async () => {
  const { host, requests, urls } = setUp({
    percent: 0,
    served: ({ stable, canary }) => ({ [stable]: container('stable'), [canary]: container('canary') }),
  });
  await host.loadRemote('remote_title/MovieDetail');
  await expect(host.loadRemote('remote_title/SeriesDetail')).resolves.toEqual({ default: 'stable ./SeriesDetail' });
  expect(requests).toEqual([urls.stable]);
});

it('falls back to stable when the canary fails to load, after one retry, and reports it', async () => {
  const fallbacks = events<CanaryFallback>('netnet:canary-fallback');
  const outages = events<RemoteFailure>('netnet:remote-error');
  const { host, requests, urls } = setUp({ percent: 100, served: ({ stable }) => ({ [stable]: container('stable') }) });

  await expect(host.loadRemote('remote_title/MovieDetail')).resolves.toEqual({ default: 'stable ./MovieDetail' });
  expect(requests).toEqual([urls.canary, urls.canary, urls.stable]);
  expect(fallbacks).toEqual([
    expect.objectContaining({ remote: 'remote-title', failed: { version: '1.4.0', channel: 'canary' }, stable: '1.3.0' }),
  ]);
  // Recovered, so not an outage.
  expect(outages).toEqual([]);
  expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('remote-title 1.4.0 (canary) failed to load'));
  expect(getRolloutStatus().remotes['remote-title']).toMatchObject({
    version: '1.3.0',
    channel: 'stable',
    state: 'loaded',
    fellBackFrom: { version: '1.4.0', channel: 'canary' },
  });

  // The page stays on stable from then on.
  await host.loadRemote('remote_title/SeriesDetail');
  expect(requests).toEqual([urls.canary, urls.canary, urls.stable]);
});

it('falls back the same way when a module of the canary throws', async () => {
  const broken: Container = { init: () => undefined, get: () => Promise.reject(new Error('ChunkLoadError')) };
  const { host } = setUp({
    percent: 100,
    served: ({ stable, canary }) => ({ [stable]: container('stable'), [canary]: broken }),
  });
  await expect(host.loadRemote('remote_title/MovieDetail')).resolves.toEqual({ default: 'stable ./MovieDetail' });
});

it('a QA pin that fails falls back to stable too', async () => {
  const fallbacks = events<CanaryFallback>('netnet:canary-fallback');
  const { host, requests } = setUp({
    percent: 0,
    overrides: { 'remote-title': '9.9.9' },
    served: ({ stable }) => ({ [stable]: container('stable') }),
  });
  await expect(host.loadRemote('remote_title/MovieDetail')).resolves.toEqual({ default: 'stable ./MovieDetail' });
  expect(requests[0]).toBe(cdn('9.9.9'));
  expect(fallbacks.at(-1)).toMatchObject({ failed: { version: '9.9.9', channel: 'override' } });
});

it('when stable itself fails there is nothing to fall back to: the error reaches the page, reported once', async () => {
  const fallbacks = events<CanaryFallback>('netnet:canary-fallback');
  const outages = events<RemoteFailure>('netnet:remote-error');
  const before = fallbacks.length;
  const { host } = setUp({ percent: 0, served: () => ({}) });
  await expect(host.loadRemote('remote_title/MovieDetail')).rejects.toThrow('RUNTIME-008');
  expect(fallbacks.length).toBe(before);
  expect(outages).toEqual([expect.objectContaining({ remote: 'remote_title', id: 'remote_title/MovieDetail' })]);
});

it('when the canary and then stable fail, the member gets the error page and Retry starts from stable', async () => {
  const served: Record<string, Container> = {};
  const { host, urls } = setUp({ percent: 100, served: () => served });
  await expect(host.loadRemote('remote_title/MovieDetail')).rejects.toThrow('RUNTIME-008');
  served[urls.stable] = container('stable');
  await expect(host.loadRemote('remote_title/MovieDetail')).resolves.toEqual({ default: 'stable ./MovieDetail' });
});
