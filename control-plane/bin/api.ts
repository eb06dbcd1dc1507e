// `node --import tsx control-plane/bin/api.ts`: the control-plane API (control-plane/openapi.yaml)
// on 127.0.0.1:$NETNET_CONTROL_PORT (8070; HOST to listen elsewhere), over the store the site
// uses (DATABASE_URL, else the embedded PostgreSQL). `npm start` and `npm run start:cluster` run
// it. Every call needs a token, local mode included: `npm run tokens -- create` makes one, and
// without NETNET_CONTROL_URL the release and rollout commands keep writing the store directly
// (docs/pipelines.md). Everything it reads from its environment is API_VARIABLES
// (../src/config.ts), read here once; `--help` lists them.
import { createLogger, describeConfig, readConfigOrExit } from '@netnet/server-kit';
import { API_VARIABLES } from '../src/config.ts';
import { startApi } from '../src/api/server.ts';
import { listTokens } from '../src/api/tokens.ts';
import { publishUpload } from '../src/releases/upload.ts';
import { messageOf } from '../src/errors.ts';
import { openDatabase } from '../src/store/database.ts';

if (process.argv.includes('--help')) {
  for (const { name, default: value, meaning } of describeConfig(API_VARIABLES)) console.log(`${name.padEnd(36)} ${value.padEnd(24)} ${meaning}`);
  process.exit(0);
}

const config = readConfigOrExit('control-plane API', API_VARIABLES, process.env);
const logger = createLogger('control-api', config.logLevel);

async function main() {
  const database = await openDatabase({ store: config, max: 8, role: 'api' });
  // The environment goes along for upload.ts and originFolder.ts alone, which still read it (its
  // variables were checked with the rest just now).
  const app = await startApi({ database, publish: publishUpload, config, env: process.env, logger });
  const address = app.server.address();
  const where = typeof address === 'object' && address ? `${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}` : String(config.controlPort);
  logger.info(`control-plane API on http://${where} (control-plane/openapi.yaml)`);
  const live = (await listTokens(database.pool)).filter((token) => token.revoked_at === null);
  if (live.length === 0) logger.warn('no API token yet: every call gets 401 until one is made (npm run tokens -- create <name> --remotes … --environments … --actions …)');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    app.server.closeAllConnections();
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 3_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  logger.fatal(`control-plane API: ${messageOf(error)}`);
  process.exit(1);
});
