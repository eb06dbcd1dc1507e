// The webpack side of the federation runtime (consuming and initialising shared modules, starting
// a container) is the same code in every app of the page. The page's provider (the shell, or a
// remote's standalone federation-runtime.js) hands its copy to the production remotes' containers,
// which are built without their own (webpack.shared.js; scripts/webpack/bundlerRuntimeFromPage.mjs
// is what they use instead). Its functions keep no state: each takes the container's own webpack
// require, so one copy serves every container.

/** The global a production remote's container reads the bundler runtime from. */
export const BUNDLER_RUNTIME_GLOBAL = '_NETNET_BUNDLER_RUNTIME';

/** What a container keeps of a bundler runtime: the functions, never the provider's own state. */
interface BundlerRuntimeSource {
  bundlerRuntime?: object;
  attachShareScopeMap?: unknown;
}

export function provideBundlerRuntime(federation: BundlerRuntimeSource | undefined): void {
  if (!federation?.bundlerRuntime) return;
  const global = globalThis as Record<string, unknown>;
  // The provider's own share scopes (S) stay its own; a container gets a fresh one.
  const { S: _ownScopes, ...functions } = federation.bundlerRuntime as Record<string, unknown>;
  global[BUNDLER_RUNTIME_GLOBAL] ??= { bundlerRuntime: functions, attachShareScopeMap: federation.attachShareScopeMap };
}
