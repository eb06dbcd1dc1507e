import { REPORT_LIMITS as limits } from '@netnet/rollout/reports';
import { bodiesFor, canSend, MAX_BODY_BYTES, requestTicket, sendReports } from './beacon';
import type { HealthReport } from './reports';

const report = (index: number): HealthReport => ({ remote: 'remote-browse', release: `1.0.${index}`, channel: 'stable', outcome: 'loaded' });

function stubBeacon(answer: boolean | (() => boolean)) {
  const sendBeacon = jest.fn((_url: string, _body: string) => (typeof answer === 'function' ? answer() : answer));
  Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true, writable: true });
  return sendBeacon;
}

function stubFetch(answer: () => Promise<unknown>) {
  const fetch = jest.fn((_url: string, _init: RequestInit) => answer());
  Object.defineProperty(globalThis, 'fetch', { value: fetch, configurable: true, writable: true });
  return fetch;
}

afterEach(() => {
  delete (navigator as any).sendBeacon;
  delete (globalThis as any).fetch;
});

it('batches at most 50 reports per body, in order', () => {
  const reports = Array.from({ length: 120 }, (_, index) => report(index));
  const bodies = bodiesFor(reports).map((body) => JSON.parse(body));
  expect(bodies.map((body) => body.reports.length)).toEqual([50, 50, 20]);
  expect(bodies.flatMap((body) => body.reports)).toEqual(reports);
  expect(bodies.every((body) => Object.keys(body).join() === 'reports')).toBe(true);
});

it('splits where the collector’s own limits say, from the list it reads', () => {
  const reports = Array.from({ length: limits.maxReports + 1 }, (_, index) => report(index));
  expect(bodiesFor(reports).map((body) => JSON.parse(body).reports.length)).toEqual([limits.maxReports, 1]);
  // One report padded to fill a body exactly goes; one byte more and it never would be accepted.
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  const ofBytes = (size: number): HealthReport => {
    const bare = bytes(`{"reports":[${JSON.stringify({ ...report(0), release: '1.0.0-' })}]}`);
    return { ...report(0), release: `1.0.0-${'x'.repeat(size - bare)}` };
  };
  const [full] = bodiesFor([ofBytes(limits.maxBodyBytes)]);
  expect(bytes(full!)).toBe(limits.maxBodyBytes);
  expect(bodiesFor([ofBytes(limits.maxBodyBytes + 1)])).toEqual([]);
});

it('sends the page’s ticket with every batch, counted in its bytes', () => {
  const ticket = `${'p'.repeat(300)}.${'s'.repeat(43)}`;
  const bodies = bodiesFor(Array.from({ length: limits.maxReports + 1 }, (_, index) => report(index)), ticket).map((body) => JSON.parse(body));
  expect(bodies.map((body) => Object.keys(body))).toEqual([['ticket', 'reports'], ['ticket', 'reports']]);
  expect(bodies.map((body) => body.ticket)).toEqual([ticket, ticket]);
  const bare = new TextEncoder().encode(bodiesFor([report(0)], ticket)[0]!).length;
  const filler = { ...report(0), release: `1.0.0-${'x'.repeat(limits.maxBodyBytes - bare)}` };
  expect(bodiesFor([filler], ticket)).toEqual([]);
  expect(bodiesFor([filler])).toHaveLength(1);
});

it('keeps each body within 16 KB', () => {
  // Long (valid) versions: 50 of them would pass the limit.
  const reports = Array.from({ length: 50 }, (_, index) => ({ ...report(index), release: `1.0.${index}-${'x'.repeat(340)}` }));
  const bodies = bodiesFor(reports);
  expect(bodies.length).toBeGreaterThan(1);
  for (const body of bodies) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(MAX_BODY_BYTES);
  expect(bodies.flatMap((body) => JSON.parse(body).reports)).toHaveLength(50);
});

it('sends each batch as a beacon to the site’s own collector', () => {
  const sendBeacon = stubBeacon(true);
  const fetch = stubFetch(async () => ({ ok: true }));
  sendReports(Array.from({ length: 51 }, (_, index) => report(index)));
  expect(sendBeacon).toHaveBeenCalledTimes(2);
  expect(sendBeacon.mock.calls.map(([url]) => url)).toEqual(['/health/reports', '/health/reports']);
  expect(JSON.parse(sendBeacon.mock.calls[1]![1]).reports).toEqual([report(50)]);
  expect(fetch).not.toHaveBeenCalled();
});

it('falls back to fetch with keepalive when the browser declines the beacon', () => {
  const sendBeacon = stubBeacon(false);
  const fetch = stubFetch(async () => ({ ok: true }));
  sendReports([report(1)]);
  expect(sendBeacon).toHaveBeenCalledTimes(1);
  expect(fetch).toHaveBeenCalledWith('/health/reports', {
    method: 'POST',
    keepalive: true,
    body: JSON.stringify({ reports: [report(1)] }),
    headers: { 'Content-Type': 'text/plain' },
  });
});

it('uses fetch where there is no beacon, and swallows its failures', async () => {
  const fetch = stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
  const unhandled = jest.fn();
  process.on('unhandledRejection', unhandled);
  try {
    expect(() => sendReports([report(1)])).not.toThrow();
    expect(fetch).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unhandled).not.toHaveBeenCalled();
  } finally {
    process.off('unhandledRejection', unhandled);
  }
});

it('never throws, even when both ways throw', () => {
  stubBeacon(() => {
    throw new TypeError('Illegal invocation');
  });
  const fetch = stubFetch(() => {
    throw new TypeError('keepalive quota');
  });
  expect(() => sendReports([report(1)])).not.toThrow();
  expect(fetch).toHaveBeenCalledTimes(1);
});

it('knows when a browser can send nothing', () => {
  expect(canSend()).toBe(false);
  stubFetch(async () => ({ ok: true }));
  expect(canSend()).toBe(true);
  delete (globalThis as any).fetch;
  stubBeacon(true);
  expect(canSend()).toBe(true);
});

describe('the page’s ticket', () => {
  const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}) => () =>
    Promise.resolve({ status, headers: new Headers(headers), json: () => Promise.resolve(body) });

  it('asks again when the server is busy or not ready, after the wait it names, then takes the ticket', async () => {
    const answers = [answer(429, {}, { 'Retry-After': '1' }), answer(503, {}, { 'Retry-After': '5' }), answer(200, { ticket: 't.1' })];
    const fetch = stubFetch(() => answers.shift()!());
    const waits: number[] = [];
    await expect(requestTicket({ wait: async (ms) => void waits.push(ms) })).resolves.toBe('t.1');
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([1_000, 5_000]);
  });

  it('gives up after three tries, waits at most 10 s, and never asks again after a refusal', async () => {
    const busy = stubFetch(answer(429, {}, { 'Retry-After': '3600' }));
    const waits: number[] = [];
    await expect(requestTicket({ wait: async (ms) => void waits.push(ms) })).resolves.toBeUndefined();
    expect(busy).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([10_000, 10_000]);

    const refused = stubFetch(answer(403));
    await expect(requestTicket({ wait: async () => {} })).resolves.toBeUndefined();
    expect(refused).toHaveBeenCalledTimes(1);
    const unsaid = stubFetch(answer(429));
    await expect(requestTicket({ wait: async () => {} })).resolves.toBeUndefined();
    expect(unsaid).toHaveBeenCalledTimes(1);
  });
});
