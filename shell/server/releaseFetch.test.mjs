// The fetch the render pool gets its server builds with (./releaseFetch.ts): a listed release's
// files from the instance's own working folder, nothing else of it, and any other address fetched.
// Run: node --import tsx --test shell/server/releaseFetch.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { releaseFilesFetch } from './releaseFetch.ts';

const ORIGIN = 'http://releases.netnet.invalid';

describe('releaseFilesFetch', () => {
  const dir = mkdtempSync(join(tmpdir(), 'netnet-release-fetch-'));
  mkdirSync(join(dir, 'remote-title', '1.0.0', 'server'), { recursive: true });
  writeFileSync(join(dir, 'remote-title', '1.0.0', 'server', 'remoteEntry.js'), '/* server build */');
  writeFileSync(join(dir, 'secret.txt'), 'outside any release');
  // On disk but not listed by the store (pruned, or never published): never answered.
  mkdirSync(join(dir, 'remote-title', '2.0.0', 'server'), { recursive: true });
  writeFileSync(join(dir, 'remote-title', '2.0.0', 'server', 'remoteEntry.js'), 'outside any release');
  const asked = [];
  const get = releaseFilesFetch(ORIGIN, {
    dir,
    has: async (remote, version) => {
      asked.push(`${remote} ${version}`);
      return remote === 'remote-title' && version === '1.0.0';
    },
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("answers a listed release's file from the working folder, asking the store's list first", async () => {
    const response = await get(`${ORIGIN}/remote-title/1.0.0/server/remoteEntry.js`);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), '/* server build */');
    assert.deepEqual(asked, ['remote-title 1.0.0']);
  });

  for (const path of ['/remote-title/2.0.0/server/remoteEntry.js', '/remote-title/1.0.0/server/missing.js', '/remote-title/1.0.0/../../secret.txt', '/secret.txt', '/remote-title/%2e%2e/secret.txt']) {
    it(`answers 404 for ${path}`, async () => {
      const response = await get(`${ORIGIN}${path}`);
      assert.equal(response.status, 404);
      assert.doesNotMatch(await response.text(), /outside any release/);
    });
  }

  it('fetches any other address', async () => {
    const real = globalThis.fetch;
    const fetched = [];
    globalThis.fetch = async (input) => {
      fetched.push(String(input));
      return new Response('from the network');
    };
    try {
      const response = await get('http://localhost:3003/server/remoteEntry.js');
      assert.equal(await response.text(), 'from the network');
    } finally {
      globalThis.fetch = real;
    }
    assert.deepEqual(fetched, ['http://localhost:3003/server/remoteEntry.js']);
  });
});
