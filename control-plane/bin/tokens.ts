// `npm run tokens -- <command>`: the control-plane API's tokens (docs/deploy.md, "Tokens"), in the
// store the site uses. Run by whoever administers the site, on a machine that reaches the store;
// the API itself cannot make or revoke tokens.
//   create <name> --remotes remote-title --environments production --actions publish,canary,promote,status
//   create <name> --remotes remote-title --environments production --actions canary,promote,rollback,status --person
//   link <name>
//   list
//   revoke <name>
// What it reads from its environment: TOKENS_VARIABLES (../src/config.ts).
import { parseArgs } from 'node:util';
import { readConfig } from '@netnet/server-kit';
import { consoleUrl, createSignInLink, LINK_HOURS } from '../src/api/console/sessions.ts';
import { ACTIONS, createToken, listTokens, parseList, revokeToken } from '../src/api/tokens.ts';
import { cliActor, runCli } from '../src/cli/run.ts';
import { TOKENS_VARIABLES } from '../src/config.ts';
import { DeployError } from '../src/errors.ts';
import { openDatabase } from '../src/store/database.ts';

const USAGE = `usage: npm run tokens -- <command>
  create <name> --remotes <list|*> --environments <list|*> --actions <list|*>
                 makes a token and prints it once (only its hash is kept)
                 actions: ${ACTIONS.join(', ')}
                 --person: a person's token for the release console: prints a one-time sign-in link instead
  link <name>    a new one-time sign-in link for a person's token
  list           every token: its scope, when it was made and last used, revoked or not
  revoke <name>  the token's next call gets 401`;

const when = (at: Date | null) => (at ? `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC` : 'never');

async function main() {
  const { values, positionals } = parseArgs({
    options: { remotes: { type: 'string' }, environments: { type: 'string' }, actions: { type: 'string' }, person: { type: 'boolean' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  const [command, name, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 1;
    return;
  }
  if (!['create', 'link', 'list', 'revoke'].includes(command)) throw new DeployError(`Unknown command "${command}".\n${USAGE}`);
  if (command !== 'create' && (values.remotes ?? values.environments ?? values.actions ?? values.person) !== undefined) {
    throw new DeployError(`--remotes, --environments, --actions and --person are options of "create" only.`);
  }
  if (rest.length || (command === 'list' ? name !== undefined : name === undefined)) throw new DeployError(USAGE);
  const config = readConfig(TOKENS_VARIABLES, process.env);
  // Where the sign-in links it prints point.
  const base = consoleUrl(config.controlPort, config.consoleUrl);
  const db = await openDatabase({ store: config, max: 1, role: 'cli', actor: cliActor() });
  try {
    if (command === 'create') {
      const scope = {
        remotes: parseList('remotes', values.remotes),
        environments: parseList('environments', values.environments),
        actions: parseList('actions', values.actions),
      };
      const person = values.person === true;
      const token = await createToken(db.pool, name ?? '', scope, cliActor(), { person });
      console.error(`${person ? 'person' : 'token'} "${name}": remotes ${scope.remotes.join(',')} · environments ${scope.environments.join(',')} · actions ${scope.actions.join(',')}`);
      if (person) await printLink(db.pool, name ?? '', base);
      else {
        console.error('shown once, never stored: keep it in your pipeline\'s secrets as NETNET_TOKEN.');
        console.log(token);
      }
    } else if (command === 'link') {
      await printLink(db.pool, name ?? '', base);
    } else if (command === 'revoke') {
      await revokeToken(db.pool, name ?? '');
      console.log(`revoked "${name}": its next call gets 401.`);
    } else {
      const tokens = await listTokens(db.pool);
      if (tokens.length === 0) console.log('no tokens (npm run tokens -- create …)');
      for (const token of tokens) {
        const state = token.revoked_at ? `revoked ${when(token.revoked_at)}` : 'active';
        console.log(
          `${token.name.padEnd(20)} ${state.padEnd(28)} ${token.person ? 'person · ' : ''}remotes ${token.remotes.join(',')} · environments ${token.environments.join(',')} · actions ${token.actions.join(',')} · made ${when(token.created_at)} by ${token.created_by} · last used ${when(token.last_used_at)}`,
        );
      }
    }
  } finally {
    await db.close();
  }
}

/** A one-time sign-in link for a person's token, on stdout (the hint on stderr). */
async function printLink(db: Parameters<typeof createSignInLink>[0], name: string, base: string) {
  let link: string;
  try {
    link = await createSignInLink(db, name, base);
  } catch (error) {
    throw new DeployError(error instanceof Error ? error.message : String(error));
  }
  console.error(`a one-time sign-in link to the release console, valid ${LINK_HOURS} hours; send it to the person only (npm run tokens -- link ${name} makes another):`);
  console.log(link);
}

runCli(main);
