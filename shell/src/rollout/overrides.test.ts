import type { RemoteMap } from '../federation/remoteMap';
import { applyOverrideParams, clearOverrides, overridesFromUrl, pinsForPage, readOverrides, removeOverrideParams, withoutOverrideParams } from './overrides';

beforeEach(() => {
  localStorage.clear();
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('applyOverrideParams', () => {
  it('pins a version per remote from remote.<name>=<version>', () => {
    expect(applyOverrideParams({}, '?remote.remote-title=1.4.0&remote.remote-search=2.0.0-rc.1&debug')).toEqual({
      'remote-title': '1.4.0',
      'remote-search': '2.0.0-rc.1',
    });
  });

  it('"clear" unpins one remote and leaves the others', () => {
    const current = { 'remote-title': '1.4.0', 'remote-search': '2.0.0' };
    expect(applyOverrideParams(current, '?remote.remote-title=clear')).toEqual({ 'remote-search': '2.0.0' });
  });

  it('a later pin replaces an earlier one', () => {
    expect(applyOverrideParams({ 'remote-title': '1.4.0' }, '?remote.remote-title=1.5.0')).toEqual({ 'remote-title': '1.5.0' });
  });

  it.each(['?remote.remote-nope=1.0.0', '?remote.remote-title=../../evil', '?remote.remote-title=', '?remote=1.0.0'])(
    'ignores unknown remotes and values that are not versions (%s)',
    (search) => {
      expect(applyOverrideParams({}, search)).toEqual({});
    },
  );
});

describe('stored overrides', () => {
  it('survive page loads until cleared', () => {
    expect(overridesFromUrl('?remote.remote-title=1.4.0')).toEqual({ 'remote-title': '1.4.0' });
    expect(overridesFromUrl('')).toEqual({ 'remote-title': '1.4.0' });
    expect(overridesFromUrl('?remote.remote-title=clear')).toEqual({});
    expect(localStorage.getItem('netnet:remote-overrides')).toBeNull();
  });

  it('clearOverrides drops them all', () => {
    overridesFromUrl('?remote.remote-title=1.4.0&remote.remote-auth=1.1.0');
    clearOverrides();
    expect(readOverrides()).toEqual({});
  });

  it('ignores tampered storage', () => {
    localStorage.setItem('netnet:remote-overrides', JSON.stringify({ 'remote-title': 'x/../y', 'remote-x': '1.0.0', 'remote-auth': '1.1.0' }));
    expect(readOverrides()).toEqual({ 'remote-auth': '1.1.0' });
    localStorage.setItem('netnet:remote-overrides', '{not json');
    expect(readOverrides()).toEqual({});
  });
});

it('the page without its remote.* and QA token parameters, the others exactly as written', () => {
  expect(withoutOverrideParams('http://localhost/title/604?remote.remote-title=1.4.0&debug&remote.remote-auth=clear')).toBe(
    'http://localhost/title/604?debug',
  );
  expect(withoutOverrideParams('http://localhost/title/604?qa-token=1.abc&remote%2Eremote-title=1.4.0#top')).toBe('http://localhost/title/604#top');
  expect(withoutOverrideParams('http://localhost/search?q=dune%20part+two&remote.remote-search=2.0.0')).toBe('http://localhost/search?q=dune%20part+two');
  expect(withoutOverrideParams('http://localhost/search?q=dune')).toBe('http://localhost/search?q=dune');
});

it('after boot the address bar no longer carries pins, so a copied or shared link does not either', () => {
  window.history.replaceState({ idx: 3 }, '', '/title/604?remote.remote-title=1.4.0&debug');
  removeOverrideParams();
  expect(window.location.href).toBe('http://localhost/title/604?debug');
  expect(window.history.state).toEqual({ idx: 3 });
});

describe('pins the map allows', () => {
  const map: RemoteMap = {
    remotes: {
      'remote-title': {
        stable: { version: '1.3.0', entry: 'https://cdn.test/remote-title/1.3.0/mf-manifest.json' },
        pinnable: [{ version: '1.4.0', entry: 'https://cdn.test/remote-title/1.4.0/mf-manifest.json' }],
      },
      'remote-search': { stable: { version: '1.0.0', entry: 'https://cdn.test/remote-search/1.0.0/mf-manifest.json' }, pinnable: [] },
    },
  };

  it('honours listed versions and refuses the others, forgetting them', () => {
    localStorage.setItem('netnet:remote-overrides', JSON.stringify({ 'remote-search': '1.1.0' }));
    expect(pinsForPage('?remote.remote-title=1.4.0', map)).toEqual({
      honoured: { 'remote-title': '1.4.0' },
      refused: { 'remote-search': '1.1.0' },
      devServers: {},
      askedDevPins: '',
    });
    expect(readOverrides()).toEqual({ 'remote-title': '1.4.0' });
    expect(pinsForPage('?remote.remote-title=0.9.0', map)).toEqual({ honoured: {}, refused: { 'remote-title': '0.9.0' }, devServers: {}, askedDevPins: '' });
    expect(readOverrides()).toEqual({});
  });
});
