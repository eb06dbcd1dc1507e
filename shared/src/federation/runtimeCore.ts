// The federation runtime that a production remote's container takes from its page instead of
// carrying its own copy (webpack.shared.js: `externalRuntime`). The names are exactly those that
// @module-federation/runtime imports from runtime-core (runtimeCore.test.ts checks this against
// the installed version): handing over the whole namespace would keep all of runtime-core
// (+20 KB gzip in the shell).
import * as core from '@module-federation/runtime-core';

// Property reads, not the namespace itself, so the bundler keeps only these exports.
export const runtimeCoreForRemotes = {
  assert: core.assert,
  CurrentGlobal: core.CurrentGlobal,
  getGlobalFederationConstructor: core.getGlobalFederationConstructor,
  getRemoteEntry: core.getRemoteEntry,
  getRemoteInfo: core.getRemoteInfo,
  helpers: core.helpers,
  loadScript: core.loadScript,
  loadScriptNode: core.loadScriptNode,
  Module: core.Module,
  ModuleFederation: core.ModuleFederation,
  registerGlobalPlugins: core.registerGlobalPlugins,
  satisfy: core.satisfy,
  setGlobalFederationConstructor: core.setGlobalFederationConstructor,
  setGlobalFederationInstance: core.setGlobalFederationInstance,
};

/** The global a container built with `externalRuntime` reads its runtime from. */
export function provideRuntimeCore(): void {
  const global = globalThis as { _FEDERATION_RUNTIME_CORE?: unknown };
  global._FEDERATION_RUNTIME_CORE ??= runtimeCoreForRemotes;
}

export { BUNDLER_RUNTIME_GLOBAL, provideBundlerRuntime } from './bundlerRuntime';
