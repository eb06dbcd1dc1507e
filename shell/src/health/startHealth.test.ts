import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RemoteName } from '../federation/remotes';
import type { Channel } from '@netnet/rollout';

// The module as boot starts it, against the real rollout status and areas' record; the federation
// runtime and web-vitals are stand-ins that hand over their hooks, the beacon a stub.

const mockPlugins: { name: string; afterLoadRemote?: () => void }[] = [];
jest.mock('@module-federation/enhanced/runtime', () => ({
  registerPlugins: (plugins: typeof mockPlugins) => mockPlugins.push(...plugins),
}));

type Reporter = (metric: { value: number }) => void;
const mockVitals: { lcp?: Reporter; inp?: Reporter; cls?: Reporter } = {};
let mockVitalsLoaded = false;
jest.mock('web-vitals', () => {
  mockVitalsLoaded = true;
  return {
    onLCP: (report: Reporter) => (mockVitals.lcp = report),
    onINP: (report: Reporter) => (mockVitals.inp = report),
    onCLS: (report: Reporter) => (mockVitals.cls = report),
  };
});

type Health = typeof import('./startHealth');
type Status = typeof import('../rollout/rolloutStatus');
type Areas = typeof import('../federation/areaErrors');
let startHealth: Health['startHealth'];
let status: Status;
let areas: Areas;
let stop = () => {};
let visibility: DocumentVisibilityState = 'visible';
let sendBeacon: jest.Mock<boolean, [string, string]>;

const CDN = 'https://cdn.test';
const entry = (remote: RemoteName, version: string) => `${CDN}/${remote}/${version}/mf-manifest.json`;

function loaded(remote: RemoteName, version: string, channel: Channel) {
  status.recordRemote(remote, { version, channel, entry: entry(remote, version), bucket: 12, state: 'loaded' });
}

/** What the rollout plugin records and announces when a canary (or pin) fails: stable instead. */
function fellBack(remote: RemoteName, failed: { version: string; channel: Channel }, stable: string) {
  status.recordRemote(remote, {
    version: stable,
    channel: 'stable',
    entry: entry(remote, stable),
    bucket: 12,
    state: 'chosen',
    fellBackFrom: { ...failed, reason: 'RUNTIME-008 404' },
  });
  window.dispatchEvent(new CustomEvent('netnet:canary-fallback', { detail: { remote, failed, stable, message: '404' } }));
}

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

/** The reports of every beacon so far, one list per beacon. */
// The page's ticket as the server signed it: every batch carries it, and is routed by its last characters.
const TICKET = 'eyJ2IjoxfQ.page-load-signature_0123456789abcdef';
const beacons = () =>
  sendBeacon.mock.calls.map(([url, body]) => {
    expect(url).toBe('/health/reports?k=0123456789abcdef');
    const parsed = JSON.parse(body) as { ticket: string; reports: Record<string, unknown>[] };
    expect(parsed.ticket).toBe(TICKET);
    return parsed.reports;
  });

const report = (remote: RemoteName, release: string, channel: Channel, outcome: string) => ({ remote, release, channel, outcome });

/** The settle delay (2 s), then the idle callback's turn. */
const afterSettling = () => jest.advanceTimersByTimeAsync(2500);

beforeAll(() => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});

beforeEach(async () => {
  jest.resetModules();
  mockPlugins.length = 0;
  mockVitalsLoaded = false;
  delete mockVitals.lcp;
  delete mockVitals.inp;
  delete mockVitals.cls;
  visibility = 'visible';
  ({ startHealth } = await import('./startHealth'));
  status = await import('../rollout/rolloutStatus');
  areas = await import('../federation/areaErrors');
  status.startRolloutStatus({ debug: false, overrides: {} });
  sendBeacon = jest.fn((_url: string, _body: string) => true);
  Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true, writable: true });
  jest.useFakeTimers();
});

afterEach(() => {
  stop();
  stop = () => {};
  jest.useRealTimers();
  delete (navigator as any).sendBeacon;
  delete (globalThis as any).fetch;
});

it('sends nothing before it starts, then everything that happened before it', async () => {
  loaded('remote-browse', '2.1.0', 'canary');
  fellBack('remote-title', { version: '1.4.0', channel: 'canary' }, '1.3.0');
  loaded('remote-title', '1.3.0', 'stable');
  status.recordRemote('remote-search', { version: '3.0.0', channel: 'stable', entry: entry('remote-search', '3.0.0'), bucket: 12, state: 'chosen' });
  areas.reportAreaError('remote-search', new Error('RUNTIME-008'), { loading: true });
  setVisibility('hidden');
  window.dispatchEvent(new Event('pagehide'));
  await jest.advanceTimersByTimeAsync(10_000);
  expect(sendBeacon).not.toHaveBeenCalled();
  // Not even web-vitals has been asked for.
  expect(mockVitalsLoaded).toBe(false);

  setVisibility('visible');
  stop = startHealth({ firstRemote: 'remote-browse', ticket: async () => TICKET });
  await jest.advanceTimersByTimeAsync(1900);
  expect(sendBeacon).not.toHaveBeenCalled();
  await afterSettling();
  expect(beacons()).toEqual([
    [
      report('remote-browse', '2.1.0', 'canary', 'loaded'),
      report('remote-title', '1.4.0', 'canary', 'fell-back'),
      report('remote-title', '1.3.0', 'stable', 'loaded'),
      report('remote-search', '3.0.0', 'stable', 'failed'),
    ],
  ]);
  expect(mockVitalsLoaded).toBe(true);
});

it('reports a remote loaded later, once the federation runtime says so', async () => {
  stop = startHealth({ firstRemote: 'remote-auth', ticket: async () => TICKET });
  await afterSettling();
  expect(sendBeacon).not.toHaveBeenCalled();
  loaded('remote-title', '1.4.0', 'override');
  expect(mockPlugins.map(({ name }) => name)).toEqual(['netnet-health']);
  mockPlugins[0]!.afterLoadRemote!();
  await afterSettling();
  expect(beacons()).toEqual([[report('remote-title', '1.4.0', 'override', 'loaded')]]);
  // Later loads of the same release are the same session.
  mockPlugins[0]!.afterLoadRemote!();
  await afterSettling();
  expect(sendBeacon).toHaveBeenCalledTimes(1);
});

it('reports a canary that falls back after it started, and the stable that served', async () => {
  stop = startHealth({ firstRemote: 'remote-auth', ticket: async () => TICKET });
  fellBack('remote-search', { version: '2.0.0-rc.1', channel: 'override' }, '1.9.0');
  loaded('remote-search', '1.9.0', 'stable');
  mockPlugins[0]!.afterLoadRemote!();
  await afterSettling();
  expect(beacons()).toEqual([[report('remote-search', '2.0.0-rc.1', 'override', 'fell-back'), report('remote-search', '1.9.0', 'stable', 'loaded')]]);
});

it('a render error replaces loaded before the report goes out; after it, it is one more failed session', async () => {
  loaded('remote-title', '1.4.0', 'canary');
  stop = startHealth({ firstRemote: 'remote-title', ticket: async () => TICKET });
  areas.reportAreaError('remote-title', new TypeError('cannot read properties of undefined'), { loading: false });
  await afterSettling();
  expect(beacons()).toEqual([[report('remote-title', '1.4.0', 'canary', 'boundary-error')]]);

  loaded('remote-browse', '2.0.0', 'stable');
  mockPlugins[0]!.afterLoadRemote!();
  await afterSettling();
  areas.reportAreaError('remote-browse', new Error('render'), { loading: false });
  areas.reportAreaError('remote-browse', new Error('render again'), { loading: false });
  await afterSettling();
  expect(beacons().slice(1)).toEqual([[report('remote-browse', '2.0.0', 'stable', 'loaded')], [report('remote-browse', '2.0.0', 'stable', 'boundary-error')]]);
});

it('a page file that fails to load is a failed release, not a render error', async () => {
  loaded('remote-title', '1.4.0', 'canary');
  stop = startHealth({ firstRemote: 'remote-title', ticket: async () => TICKET });
  areas.reportAreaError('remote-title', Object.assign(new Error('Loading chunk 823 failed.'), { name: 'ChunkLoadError' }), { loading: false });
  await afterSettling();
  expect(beacons()).toEqual([[report('remote-title', '1.4.0', 'canary', 'failed')]]);
});

it('an area failure in a remote the map does not list is no release’s', async () => {
  stop = startHealth({ firstRemote: 'remote-auth', ticket: async () => TICKET });
  areas.reportAreaError('remote-auth', new Error('down'), { loading: true });
  await afterSettling();
  expect(sendBeacon).not.toHaveBeenCalled();
});

it('blames an uncaught error on the release whose files threw it, and no other error on anyone', async () => {
  loaded('remote-title', '1.4.0', 'canary');
  loaded('remote-browse', '2.0.0', 'stable');
  stop = startHealth({ firstRemote: 'remote-browse', ticket: async () => TICKET });
  await afterSettling();
  expect(beacons()).toEqual([[report('remote-title', '1.4.0', 'canary', 'loaded'), report('remote-browse', '2.0.0', 'stable', 'loaded')]]);

  window.dispatchEvent(new ErrorEvent('error', { message: 'x', filename: 'http://localhost/main.abc.js' }));
  window.dispatchEvent(new ErrorEvent('error', { message: 'x', filename: `${CDN}/remote-title/1.3.0/823.js` }));
  window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.' }));
  window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'no stack' }));
  await afterSettling();
  expect(sendBeacon).toHaveBeenCalledTimes(1);

  window.dispatchEvent(new ErrorEvent('error', { message: 'x', filename: `${CDN}/remote-title/1.4.0/823.abc.js`, lineno: 1 }));
  const rejection = new Error('fetch failed');
  rejection.stack = `Error: fetch failed\n    at load (${CDN}/remote-browse/2.0.0/src_pages_Browse.js:4:9)`;
  window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: rejection }));
  await afterSettling();
  expect(beacons()[1]).toEqual([report('remote-title', '1.4.0', 'canary', 'uncaught-error'), report('remote-browse', '2.0.0', 'stable', 'uncaught-error')]);
});

it('an uncaught error before the report went out replaces loaded', async () => {
  loaded('remote-title', '1.4.0', 'canary');
  stop = startHealth({ firstRemote: 'remote-title', ticket: async () => TICKET });
  window.dispatchEvent(new ErrorEvent('error', { message: 'x', filename: `${CDN}/remote-title/1.4.0/823.abc.js` }));
  await afterSettling();
  expect(beacons()).toEqual([[report('remote-title', '1.4.0', 'canary', 'uncaught-error')]]);
});

it('sends at once when the page is hidden, and on pagehide', async () => {
  loaded('remote-browse', '2.0.0', 'stable');
  stop = startHealth({ firstRemote: 'remote-browse', ticket: async () => TICKET });
  // The ticket's answer first: until then nothing can go.
  await jest.advanceTimersByTimeAsync(0);
  setVisibility('hidden');
  expect(beacons()).toEqual([[report('remote-browse', '2.0.0', 'stable', 'loaded')]]);

  setVisibility('visible');
  loaded('remote-title', '1.4.0', 'canary');
  window.dispatchEvent(new Event('pagehide'));
  expect(beacons()[1]).toEqual([report('remote-title', '1.4.0', 'canary', 'loaded')]);
  await afterSettling();
  expect(sendBeacon).toHaveBeenCalledTimes(2);
});

it('sends the first page’s vitals as samples of its release when web-vitals reports them', async () => {
  fellBack('remote-title', { version: '1.4.0', channel: 'canary' }, '1.3.0');
  loaded('remote-title', '1.3.0', 'stable');
  loaded('remote-browse', '2.0.0', 'stable');
  stop = startHealth({ firstRemote: 'remote-title', ticket: async () => TICKET });
  await afterSettling();
  expect(sendBeacon).toHaveBeenCalledTimes(1);

  // LCP is final at the member's first input; the page is still visible.
  mockVitals.lcp!({ value: 1834.4 });
  await afterSettling();
  expect(beacons()[1]).toEqual([{ remote: 'remote-title', release: '1.3.0', channel: 'stable', vitals: { lcp: 1834 } }]);

  // CLS and INP come while the page is being hidden, after this module's own flush: they go at once.
  setVisibility('hidden');
  mockVitals.cls!({ value: 0.05 });
  mockVitals.inp!({ value: 96 });
  expect(beacons().slice(2)).toEqual([
    [{ remote: 'remote-title', release: '1.3.0', channel: 'stable', vitals: { cls: 0.05 } }],
    [{ remote: 'remote-title', release: '1.3.0', channel: 'stable', vitals: { inp: 96 } }],
  ]);
});

it('sends no vitals for a first page whose remote never loaded', async () => {
  stop = startHealth({ firstRemote: 'remote-search', ticket: async () => TICKET });
  await jest.advanceTimersByTimeAsync(0);
  mockVitals.lcp!({ value: 900 });
  setVisibility('hidden');
  mockVitals.cls!({ value: 0.01 });
  await afterSettling();
  expect(sendBeacon).not.toHaveBeenCalled();
});

it('splits a long queue into batches of 50', async () => {
  stop = startHealth({ firstRemote: 'remote-browse', ticket: async () => TICKET });
  for (let minor = 0; minor < 60; minor += 1) {
    loaded('remote-browse', `2.${minor}.0`, 'canary');
    mockPlugins[0]!.afterLoadRemote!();
  }
  await afterSettling();
  expect(beacons().map((batch) => batch.length)).toEqual([50, 10]);
});

it('uses fetch with keepalive when the browser declines the beacon', async () => {
  sendBeacon.mockReturnValue(false);
  const fetch = jest.fn(async (_url: string, _init: RequestInit) => ({ ok: true }));
  Object.defineProperty(globalThis, 'fetch', { value: fetch, configurable: true, writable: true });
  loaded('remote-auth', '1.0.0', 'stable');
  stop = startHealth({ firstRemote: 'remote-auth', ticket: async () => TICKET });
  await afterSettling();
  expect(fetch).toHaveBeenCalledWith('/health/reports?k=0123456789abcdef', expect.objectContaining({ method: 'POST', keepalive: true, headers: { 'Content-Type': 'text/plain' } }));
  expect(JSON.parse(fetch.mock.calls[0]![1].body as string)).toEqual({ ticket: TICKET, reports: [report('remote-auth', '1.0.0', 'stable', 'loaded')] });
});

it('does nothing at all where neither a beacon nor fetch exists', async () => {
  delete (navigator as any).sendBeacon;
  loaded('remote-auth', '1.0.0', 'stable');
  stop = startHealth({ firstRemote: 'remote-auth', ticket: async () => TICKET });
  await afterSettling();
  expect(mockPlugins).toHaveLength(0);
  expect(mockVitalsLoaded).toBe(false);
});

it('sends only what the collector’s own schema accepts: no other field, ever', async () => {
  fellBack('remote-title', { version: '1.4.0-rc.2', channel: 'override' }, '1.3.0');
  loaded('remote-title', '1.3.0', 'stable');
  loaded('remote-browse', '2.0.0', 'canary');
  status.recordRemote('remote-search', { version: '3.0.0', channel: 'stable', entry: entry('remote-search', '3.0.0'), bucket: 12, state: 'chosen' });
  areas.reportAreaError('remote-search', new Error('down'), { loading: true });
  stop = startHealth({ firstRemote: 'remote-title', ticket: async () => TICKET });
  window.dispatchEvent(new ErrorEvent('error', { message: 'x', filename: `${CDN}/remote-browse/2.0.0/1.js` }));
  await afterSettling();
  mockVitals.lcp!({ value: 2400 });
  setVisibility('hidden');
  mockVitals.cls!({ value: 0.1 });

  const bodies = sendBeacon.mock.calls.map(([, body]) => body);
  expect(bodies).toHaveLength(3);
  for (const sent of beacons().flat()) {
    expect(Object.keys(sent).every((key) => ['remote', 'release', 'channel', 'outcome', 'vitals'].includes(key))).toBe(true);
  }
  // The collector's parser itself (control-plane/src/health/reports.ts), run by Node as the server runs it.
  const reportsModule = path.resolve(__dirname, '../../../control-plane/src/health/reports.ts');
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const check = `import { parseBatch } from ${JSON.stringify(reportsModule)};
    let input = ''; for await (const chunk of process.stdin) input += chunk;
    console.log(JSON.stringify(JSON.parse(input).map((body) => parseBatch(body))));`;
  const parsed = JSON.parse(execFileSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', check], { input: JSON.stringify(bodies) }).toString());
  expect(parsed.map((result: { error?: string }) => result.error)).toEqual([undefined, undefined, undefined]);
  expect(parsed.map((result: { reports: unknown[] }) => result.reports)).toEqual(bodies.map((body) => JSON.parse(body).reports));
});

it('sends nothing when the server gives the running page no ticket: nothing would count', async () => {
  loaded('remote-browse', '2.1.0', 'canary');
  stop = startHealth({ firstRemote: 'remote-browse', ticket: async () => undefined });
  setVisibility('hidden');
  window.dispatchEvent(new Event('pagehide'));
  await afterSettling();
  expect(sendBeacon).not.toHaveBeenCalled();
});

it('leaves out a fallback the server counted itself, and reports the stable that served', async () => {
  status.recordRemote('remote-title', {
    version: '1.3.0',
    channel: 'stable',
    entry: entry('remote-title', '1.3.0'),
    bucket: 12,
    state: 'loaded',
    fellBackFrom: { version: '1.4.0', channel: 'canary', reason: 'on the server: it threw', counted: true },
  });
  stop = startHealth({ firstRemote: 'remote-title', ticket: async () => TICKET });
  await afterSettling();
  expect(beacons()).toEqual([[report('remote-title', '1.3.0', 'stable', 'loaded')]]);
});

it('asks for its ticket once, with the device cookie set, and holds outcomes until it arrives', async () => {
  let give: (ticket: string) => void = () => {};
  const ask = jest.fn(() => new Promise<string>((resolve) => (give = resolve)));
  loaded('remote-browse', '2.1.0', 'canary');
  stop = startHealth({ firstRemote: 'remote-browse', ticket: ask });
  expect(document.cookie).toMatch(/netnet-device=/);
  await afterSettling();
  expect(sendBeacon).not.toHaveBeenCalled();
  give(TICKET);
  await afterSettling();
  expect(beacons()).toEqual([[report('remote-browse', '2.1.0', 'canary', 'loaded')]]);
  expect(ask).toHaveBeenCalledTimes(1);
});
