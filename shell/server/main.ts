// One shell instance, as `npm run start:cluster` runs two behind nginx and as a container would
// run one (docs/deploy.md): the same serveShell() as `npm start`, on PORT, with probes at /healthz
// and /livez, drained on SIGTERM (./lifecycle.ts). Everything it reads from its environment is in
// ./config.ts; `--help` lists it.
import { ConfigError, createLogger } from '@netnet/server-kit';
import { readShellConfig, shellVariables } from './config.ts';
import { runInstance } from './lifecycle.ts';
import { serveShell } from './shellServer.ts';

if (process.argv.includes('--help')) {
  for (const { name, default: value, meaning } of shellVariables()) console.log(`${name.padEnd(32)} ${value.padEnd(12)} ${meaning}`);
  process.exit(0);
}

// Not a top-level await: the bundle Node runs in production (./bundle.mjs) is CommonJS.
void (async () => {
  try {
    const config = readShellConfig();
    const logger = createLogger('shell');
    await runInstance({
      name: config.instanceName ?? `shell:${config.port}`,
      hintsAsLinkHeaders: config.earlyHints === 'link',
      log: (line) => logger.info(line),
      start: () => serveShell({ port: config.port, config, logger }),
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
})();
