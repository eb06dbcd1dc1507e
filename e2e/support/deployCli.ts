import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(__dirname, '../..');
const execute = promisify(execFile);

/** `node` arguments that run a control-plane command as its npm script does (control-plane/bin/run.mjs). */
export const commandArgs = (script: 'release' | 'rollout' | 'qa-token' | 'tokens', ...args: string[]): string[] => [join(root, 'control-plane', 'bin', 'run.mjs'), script, ...args];

/** The release and rollout CLIs as a release owner runs them, for one rollout environment of a spec's own. */
export function deployCli(environment: string) {
  return async (script: 'release' | 'rollout', ...args: string[]): Promise<string> => {
    const { stdout } = await execute(process.execPath, commandArgs(script, ...args), {
      cwd: root,
      env: { ...process.env, NETNET_ENV: environment },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  };
}
