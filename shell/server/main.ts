// One shell instance, as `npm run start:cluster` runs two behind nginx and as a container would
// run one (docs/deploy.md): the same serveShell() as `npm start`, on PORT, with probes at /healthz
// and /livez, drained on SIGTERM (./lifecycle.ts). Everything it reads from its environment is in
// ./config.ts, read here once and handed down; `--help` lists it.
import { createLogger, readConfigOrExit } from '@netnet/server-kit';
import { SHELL_VARIABLES, shellVariables } from './config.ts';
import { runInstance } from './lifecycle.ts';
import { serveShell } from './shellServer.ts';

if (process.argv.includes('--help')) {
  for (const { name, default: value, meaning } of shellVariables()) console.log(`${name.padEnd(32)} ${value.padEnd(12)} ${meaning}`);
  process.exit(0);
}

const config = readConfigOrExit('shell', SHELL_VARIABLES, process.env);
const logger = createLogger('shell', config.logLevel);

// Not a top-level await: the bundle Node runs in production (./bundle.mjs) is CommonJS.
void runInstance({
  name: config.instanceName ?? `shell:${config.port}`,
  hintsAsLinkHeaders: config.earlyHints === 'link',
  operator: config,
  log: (line) => logger.info(line),
  start: () => serveShell({ port: config.port, config, logger }),
});
