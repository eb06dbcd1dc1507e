// `npm run qa-token -- [--env production] [--hours 8]`: prints a QA token for pinning versions in a
// production environment (see control-plane/src/deploy/qaToken.ts). Needs NETNET_QA_SECRET, the same secret
// the server that builds /remotes.json has. QA opens `<site>/?qa-token=<token>&remote.<remote>=<version>`.
import { parseArgs } from 'node:util';
import { runCli } from '../src/deploy/cli.ts';
import { MAX_TOKEN_HOURS, signQaToken } from '../src/deploy/qaToken.ts';
import { environmentName } from '../src/store/rollouts.ts';
import { DeployError } from '../src/deploy/tree.ts';

async function main() {
  const { values } = parseArgs({ options: { env: { type: 'string' }, hours: { type: 'string', default: '8' } } });
  const environment = environmentName(process.env, values.env);
  const hours = /^\d+(\.\d+)?$/.test(values.hours) ? Number(values.hours) : NaN;
  if (!(hours > 0 && hours <= MAX_TOKEN_HOURS)) throw new DeployError(`--hours must be a number above 0 and at most ${MAX_TOKEN_HOURS}.`);
  if (!process.env.NETNET_QA_SECRET) throw new DeployError('NETNET_QA_SECRET is not set: it is the secret the map server checks tokens with.');
  console.log(signQaToken({ secret: process.env.NETNET_QA_SECRET, environment, hours }));
}

runCli(main);
