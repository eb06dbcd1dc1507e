// Evidence is counted by client network, not by request (docs/release-health.md):
// one party holds a network's addresses (an IPv4 /24, an IPv6 /48, which one customer is commonly
// given), so cookies, devices and page loads from it, however many, weigh as one network. The
// store caps each network's sessions of a release per hour, and the guard rolls a canary back only
// on failures from several networks.
import { createHmac } from 'node:crypto';
import net from 'node:net';
import { expandIPv6, plainAddress, variable, wholeNumber } from '@netnet/server-kit';

export const NETWORK_RULES = Object.freeze({
  // Sessions (and vitals-only reports, apart) of one release one network may count per hour:
  // an office or a household behind one address keeps its say, a script behind it no more.
  sessionsPerHour: 10,
  windowMs: 60 * 60_000,
  // A canary is rolled back only on failures from at least this many networks (NETNET_GUARD_MIN_NETWORKS).
  minFailingNetworks: 3,
});

/** The client network of an address: `a.b.c.0/24`, or the first 48 bits of an IPv6 one; '' when it is no address. */
export function networkOf(address: string | undefined): string {
  const plain = plainAddress(address ?? '');
  if (net.isIPv4(plain)) return `${plain.split('.').slice(0, 3).join('.')}.0/24`;
  if (net.isIPv6(plain)) return `${expandIPv6(plain).slice(0, 3).join(':')}::/48`;
  return '';
}

/**
 * A network as tickets and the store know it: a keyed hash (the tickets' secret), so neither a
 * ticket nor the store holds a member's address. '' only without a secret.
 */
export function networkTag(secrets: Buffer[], network: string): string {
  const [secret] = secrets;
  if (!secret) return '';
  // A client with no address (never seen over TCP) is one network of its own, capped like any.
  return createHmac('sha256', secret).update(`network\0${network || 'unknown'}`).digest().subarray(0, 12).toString('base64url');
}

/** Read by whatever judges canaries: the guard, and the status the rollout command and the API show. */
export const GUARD_NETWORK_VARIABLES = {
  minFailingNetworks: variable(
    'NETNET_GUARD_MIN_NETWORKS',
    wholeNumber(1).default(NETWORK_RULES.minFailingNetworks),
    "how many client networks (IPv4 /24, IPv6 /48) a canary's failures must come from before the guard rolls it back (docs/release-health.md)",
  ),
};
