// Entry point: reads the environment, starts the service, prints one ready line, stops cleanly.
//   PORT | NETNET_CATALOGUE_PORT (7070), HOST (127.0.0.1: this machine only), CATALOGUE_SIZE (3000), CATALOGUE_SEED,
//   CATALOGUE_TODAY (YYYY-MM-DD), TMDB_API_KEY (proxy mode), TMDB_UPSTREAM, TMDB_IMAGE_UPSTREAM,
//   NETNET_CATALOGUE_PUBLIC_URL, NETNET_CATALOGUE_HOSTS and NETNET_ALLOWED_ORIGINS (comma-separated),
//   TMDB_CLIENT_BURST and TMDB_CLIENT_PER_SECOND (proxy mode's per-client limit),
//   NETNET_CONNECTIONS_PER_CLIENT (64; raise it behind a proxy, which connects for everyone).
import { CONNECTION_LIMITS } from './connections';
import { parseList } from './cors';
import { DEFAULT_CLIENT_RATE_LIMIT } from './proxy';
import { createCatalogueServer, DEFAULT_SIZE } from './server';

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return Number(raw);
}

function positiveIntFromEnv(name: string, fallback: number): number {
  const value = intFromEnv(name, fallback);
  if (value < 1) throw new Error(`${name} must be at least 1, got "${process.env[name]}"`);
  return value;
}

function main(): void {
  const env = process.env;
  const port = intFromEnv(env.PORT ? 'PORT' : 'NETNET_CATALOGUE_PORT', 7070);
  const server = createCatalogueServer({
    size: intFromEnv('CATALOGUE_SIZE', DEFAULT_SIZE),
    seed: env.CATALOGUE_SEED ? intFromEnv('CATALOGUE_SEED', 0) : undefined,
    today: env.CATALOGUE_TODAY || undefined,
    tmdbApiKey: env.TMDB_API_KEY || undefined,
    upstream: env.TMDB_UPSTREAM || undefined,
    imageUpstream: env.TMDB_IMAGE_UPSTREAM || undefined,
    publicUrl: env.NETNET_CATALOGUE_PUBLIC_URL || undefined,
    publicHosts: parseList(env.NETNET_CATALOGUE_HOSTS),
    clientRateLimit: {
      burst: positiveIntFromEnv('TMDB_CLIENT_BURST', DEFAULT_CLIENT_RATE_LIMIT.burst),
      perSecond: positiveIntFromEnv('TMDB_CLIENT_PER_SECOND', DEFAULT_CLIENT_RATE_LIMIT.perSecond),
    },
    allowedOrigins: parseList(env.NETNET_ALLOWED_ORIGINS),
    connectionLimits: { connectionsPerClient: positiveIntFromEnv('NETNET_CONNECTIONS_PER_CLIENT', CONNECTION_LIMITS.connectionsPerClient) },
  });

  server.on('error', (error: NodeJS.ErrnoException) => {
    console.error(`catalogue could not start: ${error.code === 'EADDRINUSE' ? `port ${port} is in use` : error.message}`);
    process.exit(1);
  });
  // Loopback unless HOST says otherwise, like the site's other servers (scripts/serve.mjs).
  server.listen(port, env.HOST || '127.0.0.1', () => {
    const address = server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    // Since the process started, so it counts Node's own boot and module loading too.
    const ms = Math.round(performance.now());
    const info = server.catalogueInfo;
    const what = info.mode === 'embedded' ? `${info.titles} titles, embedded` : `proxy to ${info.upstream}`;
    console.log(`catalogue ready on http://localhost:${actualPort} (${what}) in ${ms} ms`);
  });

  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    // Never hang on a stuck socket.
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

try {
  main();
} catch (error) {
  console.error(`catalogue could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
