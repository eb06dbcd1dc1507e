import { loadRemoteMap } from './lastGoodMap';

const good = { remotes: { 'remote-title': { stable: { version: '1.3.0', entry: 'http://cdn/1.3.0/mf-manifest.json' }, pinnable: [] } } };

function answer(status: number, body: string) {
  global.fetch = jest.fn().mockResolvedValue({ ok: status < 400, status, json: async () => JSON.parse(body) });
}

beforeEach(() => {
  localStorage.clear();
  jest.spyOn(console, 'warn').mockImplementation(() => {});
});

it('reads the map fresh and keeps it as the last good one', async () => {
  answer(200, JSON.stringify(good));
  await expect(loadRemoteMap()).resolves.toEqual(good);
  expect(global.fetch).toHaveBeenCalledWith('/remotes.json', { cache: 'no-cache' });
});

it('never handles a QA token itself: the server keeps it in an HttpOnly cookie the request carries', async () => {
  const token = `1999999999.${'a'.repeat(43)}`;
  window.history.replaceState(null, '', `/title/604?qa-token=${token}`);
  answer(200, JSON.stringify(good));
  await loadRemoteMap();
  expect(global.fetch).toHaveBeenLastCalledWith('/remotes.json', { cache: 'no-cache' });
  expect(JSON.stringify(sessionStorage)).not.toContain(token);
  window.history.replaceState(null, '', '/title/604');
});

it.each([
  ['malformed', () => answer(200, '{"remotes": [1,')],
  ['invalid', () => answer(200, JSON.stringify({ remotes: { 'remote-title': { stable: { version: '1.4.0' } } } }))],
  ['missing', () => answer(404, '{}')],
  ['unreachable', () => (global.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch')))],
])('falls back to the last good map when the new one is %s, with a warning', async (_kind, serve) => {
  answer(200, JSON.stringify(good));
  await loadRemoteMap();
  serve();
  await expect(loadRemoteMap()).resolves.toEqual(good);
  expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('Using the last good map'));
});

it('with no good map ever seen, the failure stands (the shell shows its error page)', async () => {
  answer(200, '{"remotes": [1,');
  await expect(loadRemoteMap()).rejects.toThrow('The map of Netnet’s parts is malformed.');
});

it('ignores a stored map that no longer validates', async () => {
  localStorage.setItem('netnet:remote-map', JSON.stringify({ remotes: { 'remote-title': { entry: 'javascript:1' } } }));
  answer(500, '{}');
  await expect(loadRemoteMap()).rejects.toThrow('HTTP 500');
});
