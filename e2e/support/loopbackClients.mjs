// GETs from many clients for the cluster's tests and benchmark: each from a loopback address of its
// own (all of 127.0.0.0/8 is this machine), so the front door's per-client limits see many
// members, as they would in production, rather than one load generator exceeding them all.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true });

/**
 * GET `path` of the site at `origin` (http://localhost:PORT) as client number `client`, from one of
 * `networks` client networks (127.N.0.0/24: release health counts evidence per network).
 * @returns {Promise<{ status: number, ms: number }>}
 */
export function getFrom(origin, path, { client, headers = {}, timeoutMs = 15_000, networks = 1 }) {
  const { port, host } = new URL(origin);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(
      // An IPv4 address to connect to: a loopback source cannot reach ::1, where localhost may resolve first.
      { host: '127.0.0.1', port, path, agent, headers: { Host: host, ...headers }, localAddress: `127.${client % networks}.0.${2 + (client % 250)}` },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}
