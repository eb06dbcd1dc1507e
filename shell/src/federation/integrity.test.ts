import { answerIntegrityLookups, integrityAttributes, integrityOf, releaseRecord, trustRelease } from './integrity';

// 64 base64 characters each: SHA-384 hashes as the integrity attribute writes them.
const hash = (letter: string) => `sha384-${letter.repeat(64)}`;
const folder = (name: string) => `https://cdn.test/${name}/remote-title/1.4.0/`;

const fetchMock = jest.fn();
beforeAll(() => Object.assign(globalThis, { fetch: fetchMock }));
beforeEach(() => fetchMock.mockReset());

const respond = (body: unknown, status = 200) => Promise.resolve({ ok: status < 400, status, json: async () => body });

it("vouches for a release's entry files, then for every file its record lists, fetched with the record's own hash", async () => {
  fetchMock.mockImplementation(() => respond({ algorithm: 'sha384', files: { 'page.1234567890.js': hash('C'), 'style.css': hash('D') } }));
  const base = folder('a');
  trustRelease({
    version: '1.4.0',
    entry: `${base}mf-manifest.json`,
    integrity: { 'mf-manifest.json': hash('A'), 'remoteEntry.js': hash('B'), 'integrity.json': hash('E') },
  });
  expect(fetchMock).toHaveBeenCalledWith(`${base}integrity.json`, { integrity: hash('E') });
  expect(integrityOf(`${base}mf-manifest.json`)).toBe(hash('A'));
  expect(integrityAttributes(`${base}remoteEntry.js`)).toEqual({ integrity: hash('B'), crossorigin: 'anonymous' });

  await releaseRecord(`${base}remoteEntry.js`);
  answerIntegrityLookups();
  expect(window['netnet:integrity']?.(`${base}page.1234567890.js`)).toBe(hash('C'));
  expect(integrityAttributes(`${base}style.css`)).toEqual({ integrity: hash('D'), crossorigin: 'anonymous' });
  // A file the record does not list, in a checked release: loaded in CORS mode, and so refused by
  // the chunk loader's own check if it is not what was published.
  expect(integrityAttributes(`${base}other.js`)).toEqual({ crossorigin: 'anonymous' });
});

it('a record that cannot be had as published makes the release unusable', async () => {
  fetchMock.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));
  const base = folder('b');
  trustRelease({ version: '1.4.0', entry: `${base}mf-manifest.json`, integrity: { 'integrity.json': hash('E') } });
  await expect(releaseRecord(`${base}remoteEntry.js`)).rejects.toThrow('Failed to fetch');

  const missing = folder('c');
  trustRelease({ version: '1.4.0', entry: `${missing}mf-manifest.json`, integrity: { 'remoteEntry.js': hash('B') } });
  await expect(releaseRecord(`${missing}remoteEntry.js`)).rejects.toThrow('the map gives no hash for');
});

it('a remote served from its own build has no hashes: its files load as before', async () => {
  trustRelease({ version: '1.0.0', entry: 'http://localhost:3003/mf-manifest.json' });
  expect(fetchMock).not.toHaveBeenCalled();
  expect(integrityAttributes('http://localhost:3003/remoteEntry.js')).toEqual({});
  await expect(releaseRecord('http://localhost:3003/remoteEntry.js')).resolves.toBeUndefined();
});
