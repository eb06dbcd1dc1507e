// Who a request really comes from, for the servers that count per client (the connection cap of
// ./connections.ts, the release-health collector's rate limit) and for the cookies the shell sets.
// A front door (the local nginx, a load balancer) connects from its own address and says who the
// client was in X-Real-IP / X-Forwarded-For, and whether it spoke HTTPS in X-Forwarded-Proto. Those
// headers are believed only from a peer listed in NETNET_TRUSTED_PROXIES: from anyone else they are
// whatever the client wrote (docs/limits.md).
import type { IncomingMessage } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface TrustedProxies {
  has(address: string | undefined): boolean;
  /** Whether a request from a listed peer is the front door's: it carries the shared secret, when one is set. */
  vouches(req: Pick<IncomingMessage, 'headers'>): boolean;
  size: number;
}

/** The header the front door proves itself with (NETNET_TRUSTED_PROXY_SECRET), set by nginx on every request it passes on. */
export const FRONT_DOOR_HEADER = 'x-netnet-front-door';

/** What is read of a request: its socket's peer and its headers. */
type Request = Pick<IncomingMessage, 'headers'> & { socket?: Partial<Pick<TLSSocket, 'remoteAddress' | 'encrypted'>> | null };

/** An IPv4 peer of a dual-stack socket comes as ::ffff:a.b.c.d; it is the same client as a.b.c.d. */
export const plainAddress = (address = ''): string => (address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address);

type Entry = { loopback: true } | { loopback: false; address: string; family: 'ipv4' | 'ipv6'; bits: number | null };

/** The entries of a comma-separated list of addresses, CIDR ranges and `loopback`; throws naming the first that is none. */
function addressEntries(value: string): Entry[] {
  const entries: Entry[] = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    if (entry === 'loopback') {
      entries.push({ loopback: true });
      continue;
    }
    const [address = '', prefix, extra] = entry.split('/');
    const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
    const bits = prefix === undefined ? null : Number(prefix);
    const maxBits = family === 'ipv4' ? 32 : 128;
    if (!family || extra !== undefined || (bits !== null && !(Number.isInteger(bits) && bits >= 0 && bits <= maxBits && /^\d+$/.test(prefix ?? '')))) {
      throw new Error(`"${entry}" is not an address, a CIDR range or "loopback"`);
    }
    entries.push({ loopback: false, address, family, bits });
  }
  return entries;
}

/** Why `value` is no list of addresses, CIDR ranges and `loopback`, or null when it is one (a config's check). */
export function addressListProblem(value: string): string | null {
  try {
    addressEntries(value);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The trusted proxies from a comma-separated list of addresses and CIDR ranges (`10.0.0.0/8`,
 * `fd00::/8`), or `loopback` for 127.0.0.0/8 and ::1. Anything else in the list is an error, so a
 * typo does not silently trust nobody (or everybody).
 */
export function parseTrustedProxies(value = '', secret = '', variable = 'NETNET_TRUSTED_PROXIES'): TrustedProxies {
  const expected = secret ? createHash('sha256').update(secret).digest() : null;
  const list = new net.BlockList();
  let entries: Entry[];
  try {
    entries = addressEntries(value);
  } catch (error) {
    throw new Error(`${variable}: ${(error as Error).message}`);
  }
  for (const entry of entries) {
    if (entry.loopback) {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
    } else if (entry.bits === null) list.addAddress(entry.address, entry.family);
    else list.addSubnet(entry.address, entry.bits, entry.family);
  }
  const size = entries.length;
  return {
    has(address: string | undefined) {
      const plain = plainAddress(address);
      if (!size || !plain) return false;
      const family = net.isIPv4(plain) ? 'ipv4' : net.isIPv6(plain) ? 'ipv6' : null;
      return family !== null && list.check(plain, family);
    },
    // A peer's address is not enough where other local processes share it (the front door on the
    // instances' host): then only a request with the secret is the front door's.
    vouches(req) {
      if (!expected) return true;
      const sent = req.headers[FRONT_DOOR_HEADER];
      return typeof sent === 'string' && timingSafeEqual(createHash('sha256').update(sent).digest(), expected);
    },
    size,
  };
}

/** The proxies a server's config names (PROXY_VARIABLES of ./variables.ts; none when unset). */
export const trustedProxiesFrom = ({ trustedProxies, trustedProxySecret }: { trustedProxies?: string | undefined; trustedProxySecret?: string | undefined }) =>
  parseTrustedProxies(trustedProxies, trustedProxySecret);

/**
 * The client's address: the socket's peer, unless the peer is a trusted proxy; then X-Real-IP, or
 * else the last address in X-Forwarded-For that is not itself a trusted proxy (the ones before it
 * were written by whoever the proxy heard from, and could be anything). A malformed header from a
 * trusted proxy leaves the proxy's own address.
 */
export function clientAddress(req: Request, trusted: TrustedProxies): string {
  const peer = plainAddress(req.socket?.remoteAddress ?? '');
  if (!trusted.has(peer) || !trusted.vouches(req)) return peer;
  const real = headerValue(req.headers['x-real-ip']);
  if (real !== undefined) return net.isIP(plainAddress(real)) ? plainAddress(real) : peer;
  const hops = (headerValue(req.headers['x-forwarded-for']) ?? '')
    .split(',')
    .map((hop) => plainAddress(hop.trim()))
    .filter(Boolean);
  for (const hop of hops.reverse()) {
    if (!net.isIP(hop)) return peer;
    if (!trusted.has(hop)) return hop;
  }
  return peer;
}

/**
 * What per-client limits count by: the address, with an IPv6 one cut to its /64 (one customer's
 * network: a client given a /64 can pick any of its 2^64 addresses at will).
 */
export function clientKey(address: string): string {
  const plain = plainAddress(address);
  if (!net.isIPv6(plain)) return plain;
  return `${expandIPv6(plain).slice(0, 4).join(':')}::/64`;
}

export function expandIPv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) takes two groups; /64 never reaches it.
  const missing = 8 - left.length - right.length;
  return [...left, ...Array(address.includes('::') ? Math.max(0, missing) : 0).fill('0'), ...right].map((group) =>
    group.includes('.') ? group : (parseInt(group, 16) || 0).toString(16),
  );
}

/** Whether the client spoke HTTPS: Node terminated TLS itself, or a trusted proxy says it did. */
export function viaHttps(req: Request, trusted: TrustedProxies): boolean {
  if (req.socket?.encrypted === true) return true;
  if (!trusted.has(req.socket?.remoteAddress) || !trusted.vouches(req)) return false;
  // A chain of proxies lists one scheme per hop; the first is what the client used.
  const proto = headerValue(req.headers['x-forwarded-proto'])?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https';
}

/** A header sent twice is not to be believed either way. */
const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? undefined : value);
