/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto';
import type { Release } from '@netnet/rollout';
import { fetchReleaseCode } from './releaseCode';

// The server build a render process is given must be the one its release recorded.

const CODE = 'module.exports = { get() {}, init() {} };\n';
const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;
const served = (body: string, status = 200): typeof fetch => (async () => new Response(body, { status })) as typeof fetch;
const release = (integrity?: Record<string, string>): Release => ({
  version: '1.4.0',
  entry: 'http://releases.test/remote-title/1.4.0/mf-manifest.json',
  ...(integrity && { integrity }),
});

describe('fetchReleaseCode', () => {
  it('gives the code of a published release whose server build matches its recorded hash', async () => {
    await expect(fetchReleaseCode(release({ 'server/remoteEntry.js': sri(CODE) }), 1_000, served(CODE))).resolves.toBe(CODE);
  });

  it('refuses a server build that differs from its recorded hash by one byte', async () => {
    await expect(fetchReleaseCode(release({ 'server/remoteEntry.js': sri(CODE) }), 1_000, served(`${CODE} `))).rejects.toThrow(
      'http://releases.test/remote-title/1.4.0/server/remoteEntry.js does not match the hash its release recorded.',
    );
  });

  it('refuses a published release that recorded hashes but none for its server build', async () => {
    await expect(fetchReleaseCode(release({ 'remoteEntry.js': sri('browser') }), 1_000, served(CODE))).rejects.toThrow('the release recorded no hash for its server build');
  });

  it('takes a remote served from its own build (no recorded hashes at all) as it is', async () => {
    await expect(fetchReleaseCode(release(), 1_000, served(CODE))).resolves.toBe(CODE);
  });

  it('says which address failed when the origin does not have it', async () => {
    await expect(fetchReleaseCode(release(), 1_000, served('gone', 404))).rejects.toThrow('server/remoteEntry.js answered HTTP 404');
  });

  it('refuses a hash in an algorithm it does not know', async () => {
    await expect(fetchReleaseCode(release({ 'server/remoteEntry.js': 'md17-abc' }), 1_000, served(CODE))).rejects.toThrow('unknown algorithm (md17)');
  });
});
