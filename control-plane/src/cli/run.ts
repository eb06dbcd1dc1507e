// How the commands of control-plane/bin/ end: a mistake at the keyboard is one readable line and
// exit code 1; a wrong environment (a ConfigError, read at the command's start) exit code 2.
import { hostname, userInfo } from 'node:os';
import { ConfigError } from '@netnet/server-kit';
import { DeployError, codeOf, messageOf } from '../errors.ts';

/** Who runs a command, as the audit trail names them: `user@host`. */
export const cliActor = (): string => `${userInfo().username}@${hostname()}`;

export function runCli(main: () => Promise<void>): void {
  Promise.resolve()
    .then(main)
    .catch((error: unknown) => {
      const code = codeOf(error);
      const expected = error instanceof DeployError || error instanceof ConfigError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
      console.error(expected ? `error: ${messageOf(error)}` : error);
      process.exitCode = error instanceof ConfigError ? 2 : 1;
    });
}
