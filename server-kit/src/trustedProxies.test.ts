// The front door's proof (./trustedProxies.ts): with NETNET_TRUSTED_PROXY_SECRET set, a listed
// peer names the client only on a request that carries the secret; any other local process that
// talks to an instance directly is taken for itself.
// Run: node --import tsx --test server-kit/src/trustedProxies.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientAddress, trustedProxiesFrom, viaHttps } from './trustedProxies.ts';

const request = (headers: Record<string, string>) => ({ headers, socket: { remoteAddress: '127.0.0.1' } });

describe('a trusted proxy with a secret', () => {
  const trusted = trustedProxiesFrom({ trustedProxies: '127.0.0.1', trustedProxySecret: 'the-front-doors-secret' });

  it('names the client, and HTTPS, only with the secret', () => {
    const forwarded = { 'x-real-ip': '203.0.113.7', 'x-forwarded-proto': 'https' };
    assert.equal(clientAddress(request({ ...forwarded, 'x-netnet-front-door': 'the-front-doors-secret' }), trusted), '203.0.113.7');
    assert.equal(viaHttps(request({ ...forwarded, 'x-netnet-front-door': 'the-front-doors-secret' }), trusted), true);
    for (const proof of [{}, { 'x-netnet-front-door': 'a-guess' }] as Record<string, string>[]) {
      assert.equal(clientAddress(request({ ...forwarded, ...proof }), trusted), '127.0.0.1');
      assert.equal(viaHttps(request({ ...forwarded, ...proof }), trusted), false);
    }
  });

  it('is the address alone without a secret, as before', () => {
    assert.equal(clientAddress(request({ 'x-real-ip': '203.0.113.7' }), trustedProxiesFrom({ trustedProxies: '127.0.0.1' })), '203.0.113.7');
  });
});
