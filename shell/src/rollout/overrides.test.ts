import { applyOverrideParams, clearOverrides, overridesFromUrl, readOverrides, withoutOverrideParams } from './overrides';

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

it('clearing leads to the same page without its remote.* parameters', () => {
  expect(withoutOverrideParams('http://localhost/title/604?remote.remote-title=1.4.0&debug&remote.remote-auth=clear')).toBe(
    'http://localhost/title/604?debug=',
  );
  expect(withoutOverrideParams('http://localhost/search?q=dune')).toBe('http://localhost/search?q=dune');
});
