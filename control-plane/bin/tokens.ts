// `npm run tokens -- <command>`: the control-plane API's tokens (docs/deploy.md, "Tokens"), in the
// store the site uses. Run by whoever administers the site, on a machine that reaches the store;
// the API itself cannot make or revoke tokens.
//   create <name> --remotes remote-title --environments production --actions publish,canary,promote,status
//   list
//   revoke <name>
import { hostname, userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { ACTIONS, createToken, listTokens, parseList, revokeToken } from '../src/api/tokens.ts';
import { runCli } from '../src/deploy/cli.ts';
import { DeployError } from '../src/deploy/tree.ts';
import { openDatabase } from '../src/store/database.ts';

const USAGE = `usage: npm run tokens -- <command>
  create <name> --remotes <list|*> --environments <list|*> --actions <list|*>
                 makes a token and prints it once (only its hash is kept)
                 actions: ${ACTIONS.join(', ')}
  list           every token: its scope, when it was made and last used, revoked or not
  revoke <name>  the token's next call gets 401`;

const when = (at: Date | null) => (at ? `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC` : 'never');

async function main() {
  const { values, positionals } = parseArgs({
    options: { remotes: { type: 'string' }, environments: { type: 'string' }, actions: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  const [command, name, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 1;
    return;
  }
  if (!['create', 'list', 'revoke'].includes(command)) throw new DeployError(`Unknown command "${command}".\n${USAGE}`);
  if (command !== 'create' && (values.remotes ?? values.environments ?? values.actions) !== undefined) {
    throw new DeployError(`--remotes, --environments and --actions are options of "create" only.`);
  }
  if (rest.length || (command === 'list' ? name !== undefined : name === undefined)) throw new DeployError(USAGE);
  const db = await openDatabase({ max: 1, role: 'cli', actor: `${userInfo().username}@${hostname()}` });
  try {
    if (command === 'create') {
      const scope = {
        remotes: parseList('remotes', values.remotes),
        environments: parseList('environments', values.environments),
        actions: parseList('actions', values.actions),
      };
      const token = await createToken(db.pool, name ?? '', scope, `${userInfo().username}@${hostname()}`);
      console.error(`token "${name}": remotes ${scope.remotes.join(',')} · environments ${scope.environments.join(',')} · actions ${scope.actions.join(',')}`);
      console.error('shown once, never stored: keep it in your pipeline\'s secrets as NETNET_TOKEN.');
      console.log(token);
    } else if (command === 'revoke') {
      await revokeToken(db.pool, name ?? '');
      console.log(`revoked "${name}": its next call gets 401.`);
    } else {
      const tokens = await listTokens(db.pool);
      if (tokens.length === 0) console.log('no tokens (npm run tokens -- create …)');
      for (const token of tokens) {
        const state = token.revoked_at ? `revoked ${when(token.revoked_at)}` : 'active';
        console.log(
          `${token.name.padEnd(20)} ${state.padEnd(28)} remotes ${token.remotes.join(',')} · environments ${token.environments.join(',')} · actions ${token.actions.join(',')} · made ${when(token.created_at)} by ${token.created_by} · last used ${when(token.last_used_at)}`,
        );
      }
    }
  } finally {
    await db.close();
  }
}

runCli(main);
