// Operator endpoints (./operatorAccess.ts): an internal peer not forwarded, or the operator's token.
// Run: node --import tsx --test server-kit/src/operatorAccess.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IncomingMessage } from 'node:http';
import { operatorAccess } from './operatorAccess.ts';

const request = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe('operatorAccess', () => {
  it('lets 127.0.0.1 and ::1 in, and not another loopback address, nor anyone else', () => {
    const allowed = operatorAccess({});
    assert.equal(allowed(request('127.0.0.1')), true);
    assert.equal(allowed(request('::ffff:127.0.0.1')), true);
    assert.equal(allowed(request('::1')), true);
    for (const peer of ['127.0.0.2', '127.66.0.9', '10.0.0.5', '203.0.113.7']) assert.equal(allowed(request(peer)), false, peer);
  });

  it('refuses what a front door forwarded, even from an internal peer: it is a client’s request', () => {
    const allowed = operatorAccess({});
    assert.equal(allowed(request('127.0.0.1', { 'x-real-ip': '203.0.113.7' })), false);
    assert.equal(allowed(request('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })), false);
  });

  it('takes the internal addresses (NETNET_INTERNAL_ADDRESSES), and the operator token (NETNET_OPERATOR_TOKEN) from anywhere', () => {
    const allowed = operatorAccess({ internalAddresses: '10.0.0.0/8', operatorToken: 'scrape-secret' });
    assert.equal(allowed(request('10.1.2.3')), true);
    assert.equal(allowed(request('127.0.0.1')), false);
    assert.equal(allowed(request('203.0.113.7', { authorization: 'Bearer scrape-secret' })), true);
    assert.equal(allowed(request('203.0.113.7', { authorization: 'Bearer scrape-secreT' })), false);
    assert.equal(operatorAccess({})(request('203.0.113.7', { authorization: 'Bearer ' })), false);
  });
});
