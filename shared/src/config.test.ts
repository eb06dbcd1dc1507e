import { getRuntimeConfig, isRuntimeConfig, loadRuntimeConfig } from './config';

const valid = {
  catalogueUrl: 'http://localhost:7070',
  firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-netnet' },
  authEmulatorUrl: 'http://127.0.0.1:9099',
};

const respond = (status: number, body: unknown) =>
  jest.fn().mockResolvedValue({ ok: status < 400, status, json: async () => body });

it('recognises a valid configuration and refuses broken ones', () => {
  expect(isRuntimeConfig(valid)).toBe(true);
  expect(isRuntimeConfig({ ...valid, authEmulatorUrl: null })).toBe(true);
  expect(isRuntimeConfig(null)).toBe(false);
  expect(isRuntimeConfig({ ...valid, catalogueUrl: 7 })).toBe(false);
  expect(isRuntimeConfig({ ...valid, firebase: undefined })).toBe(false);
});

it('loads the configuration without caching it in the browser', async () => {
  global.fetch = respond(200, valid);
  await expect(loadRuntimeConfig()).resolves.toEqual(valid);
  expect(global.fetch).toHaveBeenCalledWith('/config.json', { cache: 'no-cache' });
  expect(getRuntimeConfig()).toEqual(valid);
});

it('explains a missing or malformed configuration', async () => {
  global.fetch = respond(404, null);
  await expect(loadRuntimeConfig()).rejects.toThrow('HTTP 404');
  global.fetch = respond(200, { nope: true });
  await expect(loadRuntimeConfig()).rejects.toThrow('malformed');
});
