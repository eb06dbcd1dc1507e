// `npm run qa-token -- <command>`: QA tokens for pinning versions in a production environment, and
// dev servers anywhere (docs/releases.md, "QA pins"). Each is made for a named person, recorded in
// the store the site uses, and honoured only while it stands there.
//   --for <who> [--env production] [--hours 8]   makes one and prints it
//   list [--env production]                      the environment's tokens of the last week
//   revoke <id>                                  its next page load pins nothing
// Making one needs NETNET_QA_SECRET, the secret the servers that build /remotes.json check tokens with.
// What it reads from its environment: QA_TOKEN_VARIABLES (../src/config.ts).
import { parseArgs } from 'node:util';
import { readConfig } from '@netnet/server-kit';
import { cliActor, runCli } from '../src/cli/run.ts';
import { QA_TOKEN_VARIABLES } from '../src/config.ts';
import { MAX_TOKEN_HOURS, newQaTokenId, signQaToken } from '../src/rollouts/qaToken.ts';
import { DeployError } from '../src/errors.ts';
import { openDatabase } from '../src/store/database.ts';
import { listQaTokens, recordQaToken, revokeQaToken } from '../src/store/qaTokens.ts';
import { environmentName } from '../src/store/rollouts.ts';

const USAGE = `usage: npm run qa-token -- <command>
  --for <who> [--env <environment>] [--hours <at most ${MAX_TOKEN_HOURS}>]   makes a token for <who> and prints it
  list [--env <environment>]                                          the environment's tokens of the last week
  revoke <id>                                                         the token pins nothing from its next page load
                                                                      (an older id starting with "-": revoke -- <id>)`;

const when = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

async function main() {
  const { values, positionals } = parseArgs({ options: { for: { type: 'string' }, env: { type: 'string' }, hours: { type: 'string' }, help: { type: 'boolean' } }, allowPositionals: true });
  const [command, id, ...rest] = positionals;
  if (values.help) return console.log(USAGE);
  const config = readConfig(QA_TOKEN_VARIABLES, process.env);
  const environment = environmentName(values.env ?? config.environment);
  const actor = cliActor();
  if (command === undefined) {
    const madeFor = values.for?.trim();
    if (!madeFor) throw new DeployError(`--for <who> names the person the token is for.\n${USAGE}`);
    const hoursText = values.hours ?? '8';
    const hours = /^\d+(\.\d+)?$/.test(hoursText) ? Number(hoursText) : NaN;
    if (!(hours > 0 && hours <= MAX_TOKEN_HOURS)) throw new DeployError(`--hours must be a number above 0 and at most ${MAX_TOKEN_HOURS}.`);
    if (!config.qaSecret) throw new DeployError('NETNET_QA_SECRET is not set: it is the secret the map server checks tokens with.');
    const expires = new Date(Math.floor(Date.now() / 1000 + hours * 3600) * 1000);
    const tokenId = newQaTokenId();
    const token = signQaToken({ secret: config.qaSecret, environment, id: tokenId, expires });
    const db = await openDatabase({ store: config, max: 1, role: 'cli', actor });
    try {
      await recordQaToken(db.pool, { id: tokenId, environment, madeFor, createdBy: actor, expiresAt: expires });
    } finally {
      await db.close();
    }
    console.error(`QA token ${tokenId} for ${madeFor} in ${environment}, until ${when(expires)} (npm run qa-token -- revoke ${tokenId})`);
    console.log(token);
    return;
  }
  if (values.for !== undefined || values.hours !== undefined) throw new DeployError(`--for and --hours make a token; they go with no command.\n${USAGE}`);
  if (rest.length || !['list', 'revoke'].includes(command) || (command === 'revoke') !== (id !== undefined)) throw new DeployError(USAGE);
  const db = await openDatabase({ store: config, max: 1, role: 'cli', actor });
  try {
    if (command === 'revoke') {
      if (!(await revokeQaToken(db.pool, id ?? ''))) throw new DeployError(`No standing QA token ${id}: it does not exist or was revoked already.`);
      console.log(`QA token ${id} revoked: every instance refuses it from now on.`);
      return;
    }
    const tokens = await listQaTokens(db.pool, environment);
    if (tokens.length === 0) return console.log(`No QA token in ${environment} this last week.`);
    for (const token of tokens) {
      const state = token.revokedAt ? `revoked ${when(token.revokedAt)}` : token.expiresAt.getTime() <= Date.now() ? 'expired' : `until ${when(token.expiresAt)}`;
      console.log(`${token.id}  for ${token.madeFor}  by ${token.createdBy} ${when(token.createdAt)}  ${state}`);
    }
  } finally {
    await db.close();
  }
}

runCli(main);
