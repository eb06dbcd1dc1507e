// Entry point: reads the environment once (./config.ts), starts the service, logs one ready line,
// stops cleanly.
import { ConfigError, createLogger, parseTrustedProxies, readConfig, type Logger } from '@netnet/server-kit';
import { CONFIG } from './config';
import { createCatalogueServer } from './server';

/** Stops the process with a line that says why: exit code 2 for a wrong environment, as the site's other processes. */
function cannotStart(logger: Logger, why: string, code = 1): never {
  logger.fatal(`catalogue could not start: ${why}`);
  process.exit(code);
}

async function main(): Promise<void> {
  const logger = createLogger('catalogue');
  let server;
  try {
    const config = readConfig(CONFIG, process.env);
    logger.level = config.logLevel;
    server = {
      config,
      ...createCatalogueServer({
        size: config.size,
        seed: config.seed,
        today: config.today,
        tmdbApiKey: config.tmdbApiKey,
        upstream: config.upstream,
        imageUpstream: config.imageUpstream,
        publicUrl: config.publicUrl,
        publicHosts: config.publicHosts,
        allowedOrigins: config.allowedOrigins,
        clientRateLimit: { burst: config.clientBurst, perSecond: config.clientPerSecond },
        connectionLimits: { connectionsPerClient: config.connectionsPerClient },
        trustedProxies: parseTrustedProxies(config.trustedProxies, config.trustedProxySecret),
        logger,
      }),
    };
  } catch (error) {
    // A ConfigError names every wrong variable; the generator names a bad size or day.
    cannotStart(logger, error instanceof Error ? error.message : String(error), error instanceof ConfigError ? 2 : 1);
  }
  const { config, app, catalogueInfo: info } = server;
  const port = config.port ?? config.cataloguePort;

  try {
    // Loopback unless HOST says otherwise, like the site's other servers.
    await app.listen({ port, host: config.host });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    cannotStart(logger, code === 'EADDRINUSE' ? `port ${port} is in use` : message);
  }
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  // Since the process started, so it counts Node's own boot and module loading too.
  const ms = Math.round(performance.now());
  const what = info.mode === 'embedded' ? `${info.titles} titles, embedded` : `proxy to ${info.upstream}`;
  logger.info({ port: actualPort, ...info, ms }, `catalogue ready on http://localhost:${actualPort} (${what}) in ${ms} ms`);

  const stop = () => {
    // Every connection is closed at once (forceCloseConnections): no drain.
    void app.close().then(() => process.exit(0));
    // Never hang on a stuck socket.
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
