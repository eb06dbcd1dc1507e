// What a production remote's container gets instead of its own copy of the federation runtime's
// webpack side (webpack.shared.js aliases the package's bundler entry here): the page's functions,
// which the shell (or the standalone page's federation-runtime.js) provides under this global
// (shared/src/federation/bundlerRuntime.ts), around this container's own state. The runtime module
// itself stays the container's: it keeps the container's federation instance.
import * as runtime from '@module-federation/runtime';
// The shell has no exposed modules, so its copy leaves out starting a container: this one brings it.
import { initContainerEntry } from '@module-federation/webpack-bundler-runtime/dist/initContainerEntry.js';

const provided = globalThis._NETNET_BUNDLER_RUNTIME;
if (!provided) throw new Error('Netnet: this container needs its page to provide the federation runtime (the shell, or federation-runtime.js).');

const federation = {
  runtime,
  instance: undefined,
  initOptions: undefined,
  bundlerRuntime: { ...provided.bundlerRuntime, initContainerEntry, S: {} },
  attachShareScopeMap: provided.attachShareScopeMap,
  bundlerRuntimeOptions: {},
};

export default federation;
