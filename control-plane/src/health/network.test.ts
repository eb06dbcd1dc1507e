// Client networks as release health counts them: an IPv4 /24, an IPv6 /48, and the setting of
// how many the guard needs failures from.
// Run: node --import tsx --test control-plane/src/health/network.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readConfig } from '@netnet/server-kit';
import { GUARD_NETWORK_VARIABLES, NETWORK_RULES, networkOf, networkTag } from './network.ts';

const secrets = [Buffer.alloc(32, 3)];

describe('networkOf', () => {
  it('puts every address of an IPv4 /24 in one network, and the next /24 in another', () => {
    assert.equal(networkOf('203.0.113.7'), '203.0.113.0/24');
    assert.equal(networkOf('203.0.113.250'), '203.0.113.0/24');
    assert.equal(networkOf('::ffff:203.0.113.9'), '203.0.113.0/24');
    assert.notEqual(networkOf('203.0.114.7'), networkOf('203.0.113.7'));
  });

  it('puts every address of an IPv6 /48 in one network, however it is written', () => {
    assert.equal(networkOf('2001:db8:1234:5678::1'), '2001:db8:1234::/48');
    assert.equal(networkOf('2001:0db8:1234:ffff:1:2:3:4'), '2001:db8:1234::/48');
    assert.equal(networkOf('2001:db8::1'), '2001:db8:0::/48');
    assert.notEqual(networkOf('2001:db8:1235::1'), networkOf('2001:db8:1234::1'));
  });

  it('is empty for what is no address', () => {
    assert.equal(networkOf(''), '');
    assert.equal(networkOf(undefined), '');
    assert.equal(networkOf('localhost'), '');
  });
});

describe('networkTag', () => {
  it('is the same for one network, differs between networks and secrets, and never holds the address', () => {
    const tag = networkTag(secrets, networkOf('198.51.100.4'));
    assert.equal(tag, networkTag(secrets, networkOf('198.51.100.200')));
    assert.notEqual(tag, networkTag(secrets, networkOf('198.51.101.4')));
    assert.notEqual(tag, networkTag([Buffer.alloc(32, 4)], networkOf('198.51.100.4')));
    assert.match(tag, /^[A-Za-z0-9_-]{16}$/);
    assert.doesNotMatch(tag, /198|51|100/);
  });

  it('gives an unknown client one tag of its own rather than none, so it is capped like any network', () => {
    assert.match(networkTag(secrets, ''), /^[A-Za-z0-9_-]{16}$/);
    assert.equal(networkTag([], '198.51.100.0/24'), '');
  });
});

describe('the guard\'s minimum of failing networks', () => {
  const minFailingNetworks = (env: NodeJS.ProcessEnv) => readConfig(GUARD_NETWORK_VARIABLES, env).minFailingNetworks;

  it('is 3 unless NETNET_GUARD_MIN_NETWORKS says otherwise, and refuses what is not a whole number of 1 or more', () => {
    assert.equal(minFailingNetworks({}), NETWORK_RULES.minFailingNetworks);
    assert.equal(NETWORK_RULES.minFailingNetworks, 3);
    assert.equal(minFailingNetworks({ NETNET_GUARD_MIN_NETWORKS: '5' }), 5);
    for (const value of ['0', '-1', '2.5', 'three']) assert.throws(() => minFailingNetworks({ NETNET_GUARD_MIN_NETWORKS: value }), /NETNET_GUARD_MIN_NETWORKS/);
  });
});
