// Runs a command of this folder: `node control-plane/bin/run.mjs rollout status`, as every npm
// script of the control plane does (`npm run rollout -- status`). The command runs from its bundle
// in control-plane/dist/bin/ (server-kit/bundle.mjs), built again first whenever one of the source
// files it was built from changed since. Under the tsx loader a command spent about 1.4 s of CPU
// before its first line of work, the loader's hooks taking each of its modules in turn; from its
// bundle about 0.5 s. Pipelines, the site's API and guard processes and the commands' own tests
// start hundreds of them.
//
// Plain JavaScript: it is what runs before any TypeScript can be.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const COMMANDS = ['api', 'openapi', 'qa-token', 'release', 'rollout', 'tokens'];

const bin = fileURLToPath(new URL('.', import.meta.url));
const out = fileURLToPath(new URL('../dist/bin/', import.meta.url));
const bundleOf = (command) => join(out, `${command}.mjs`);
const inputsOf = (command) => join(out, `${command}.inputs.json`);

/** True when the command's bundle was built after the last change of every file it holds. */
export function isFresh(command) {
  if (!existsSync(bundleOf(command)) || !existsSync(inputsOf(command))) return false;
  const built = statSync(bundleOf(command)).mtimeMs;
  const inputs = JSON.parse(readFileSync(inputsOf(command), 'utf8'));
  return inputs.every((input) => existsSync(input) && statSync(input).mtimeMs <= built);
}

/**
 * Builds the command's bundle. Written beside, then renamed in, so a command started meanwhile
 * (several run at once in a pipeline or a test) reads the old bundle or the new one, never half of
 * one; dated from the start of the build, so a file changed while it ran makes it stale again.
 */
export async function buildCommand(command) {
  const { bundleProgram } = await import('@netnet/server-kit/bundle');
  const started = new Date();
  const staging = join(out, `.${command}.${process.pid}`);
  mkdirSync(out, { recursive: true });
  const inputs = await bundleProgram({ entry: join(bin, `${command}.ts`), outfile: `${staging}.mjs`, format: 'esm' });
  writeFileSync(`${staging}.json`, JSON.stringify(inputs));
  utimesSync(`${staging}.mjs`, started, started);
  renameSync(`${staging}.mjs.map`, `${bundleOf(command)}.map`);
  renameSync(`${staging}.json`, inputsOf(command));
  renameSync(`${staging}.mjs`, bundleOf(command));
}

/** Every command's bundle, as `npm run build` makes them for an image that runs them read-only. */
export async function buildCommands() {
  for (const command of COMMANDS) if (!isFresh(command)) await buildCommand(command);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // The command's own arguments start where they would under `node control-plane/bin/<command>.ts`.
  const [command] = process.argv.splice(2, 1);
  if (!COMMANDS.includes(command)) {
    console.error(`error: no command ${JSON.stringify(command ?? '')}: one of ${COMMANDS.join(', ')}`);
    process.exit(1);
  }
  if (!isFresh(command)) await buildCommand(command);
  await import(pathToFileURL(bundleOf(command)).href);
}
