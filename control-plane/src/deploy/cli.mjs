// How the deploy CLIs end: a mistake at the keyboard is one readable line and exit code 1.
import { DeployError } from './tree.mjs';

export function runCli(main) {
  Promise.resolve()
    .then(main)
    .catch((error) => {
      const expected = error instanceof DeployError || error?.code?.startsWith?.('ERR_PARSE_ARGS');
      console.error(expected ? `error: ${error.message}` : error);
      process.exitCode = 1;
    });
}
