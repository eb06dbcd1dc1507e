// The control plane is TypeScript (docs/store.md) and Node 20 runs no TypeScript by itself:
// a child Node process whose script imports it, directly or through site/processes.mjs or
// shell/server/, starts with the tsx loader. Resolved here to a file URL, so it is found
// whatever the child's working directory.
export const TSX_LOADER = import.meta.resolve('tsx');

/** `execArgv` without the loader: for a child that runs built JavaScript (the shell's server bundle). */
export function withoutTsx(execArgv = []) {
  return execArgv.filter((arg, index) => !(arg === '--import' && (execArgv[index + 1] === 'tsx' || execArgv[index + 1] === TSX_LOADER)) && !(execArgv[index - 1] === '--import' && (arg === 'tsx' || arg === TSX_LOADER)));
}

/** `execArgv` with the loader in front, unless it is there already (a parent run with `--import tsx`). */
export function withTsx(execArgv = []) {
  const loaded = execArgv.some((arg, index) => execArgv[index - 1] === '--import' && (arg === 'tsx' || arg === TSX_LOADER));
  return loaded ? execArgv : ['--import', TSX_LOADER, ...execArgv];
}
