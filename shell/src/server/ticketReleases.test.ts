/**
 * @jest-environment node
 */
import { parseRemoteMap } from '../federation/remoteMap';
import { identityOf, ticketReleases as releasesOf, type TicketIdentity } from './ticketReleases';

/** The releases for a map as the server holds it: a document, parsed. */
const ticketReleases = (document: unknown, identity: TicketIdentity, failed?: { remote: string; version: string }) =>
  releasesOf(parseRemoteMap(document), identity, failed);

// What a page's release-health ticket names (docs/release-health.md).

const release = (version: string) => ({ version, entry: `http://cdn.test/remote-title/${version}/mf-manifest.json` });
const mapWith = (percent: number) => ({
  remotes: {
    'remote-title': { stable: release('1.3.0'), canary: { ...release('1.4.0'), percent }, pinnable: [] },
    'remote-search': { stable: release('2.0.0'), pinnable: [] },
  },
});
const stables = [
  { remote: 'remote-title', version: '1.3.0', channel: 'stable' },
  { remote: 'remote-search', version: '2.0.0', channel: 'stable' },
];
const canary = { remote: 'remote-title', version: '1.4.0', channel: 'canary' };

it('names every stable, and the canary only for a member or device that gets it', () => {
  expect(ticketReleases(mapWith(100), { member: null, device: 'device-1' })).toEqual([...stables.slice(0, 1), canary, ...stables.slice(1)]);
  expect(ticketReleases(mapWith(0), { member: null, device: 'device-1' })).toEqual(stables);
  expect(ticketReleases(mapWith(0), { member: 'member-1', device: 'device-1' })).toEqual(stables);
});

it('names the canary for a first visit with no identity yet: the browser picks its own device id', () => {
  expect(ticketReleases(mapWith(0), { member: null, device: null })).toContainEqual(canary);
});

it('leaves out a canary that already failed on the server for this page (the server counted it)', () => {
  expect(ticketReleases(mapWith(100), { member: null, device: 'device-1' }, { remote: 'remote-title', version: '1.4.0' })).toEqual(stables);
});

it('reads the identity from the member and device cookies', () => {
  expect(identityOf({ headers: { cookie: 'netnet-device=abc-123; netnet-member=uid42' } })).toEqual({ member: 'uid42', device: 'abc-123' });
  expect(identityOf({ headers: {} })).toEqual({ member: null, device: null });
});
