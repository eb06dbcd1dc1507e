import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const root = resolve(__dirname, '../..');
const execute = promisify(execFile);
// The commands are TypeScript, run as `npm run release` runs them: under the tsx loader.
const tsx = pathToFileURL(require.resolve('tsx')).href;

/** The release and rollout CLIs as a release owner runs them, for one rollout environment of a spec's own. */
export function deployCli(environment: string) {
  return async (script: 'release' | 'rollout', ...args: string[]): Promise<string> => {
    const { stdout } = await execute(process.execPath, ['--import', tsx, join(root, 'control-plane', 'bin', `${script}.ts`), ...args], {
      cwd: root,
      env: { ...process.env, NETNET_ENV: environment },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  };
}
