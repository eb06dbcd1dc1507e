// The address a request comes from, for the limits kept per client (the release-health collector's
// token bucket, per-client connection caps). Behind the front door every request reaches an
// instance from nginx's own address, so all members would share one bucket: there the client is
// nginx's X-Real-IP, believed only from a peer listed in NETNET_TRUSTED_PROXIES (start:cluster sets
// 127.0.0.1, where its nginx connects from; docs/deploy.md, "Limits"). Unset, the socket's address
// is the client, and a header cannot change it.

const normalise = (address) => (address?.startsWith('::ffff:') ? address.slice(7) : address);

/** @param {NodeJS.ProcessEnv} [env] */
export function clientAddressOf(env = process.env) {
  const trusted = new Set((env.NETNET_TRUSTED_PROXIES ?? '').split(',').map((entry) => normalise(entry.trim())).filter(Boolean));
  /** @param {import('node:http').IncomingMessage} req */
  return (req) => {
    const peer = normalise(req.socket?.remoteAddress) ?? 'unknown';
    const forwarded = req.headers['x-real-ip'];
    return trusted.has(peer) && typeof forwarded === 'string' && forwarded.trim() !== '' ? forwarded.trim() : peer;
  };
}
