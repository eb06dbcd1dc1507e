// The federation runtime that a production remote's container takes from its page instead of
// carrying its own copy (webpack.shared.js: `externalRuntime`). The names are exactly those that
// @module-federation/runtime imports from runtime-core (runtimeCore.test.ts checks this against
// the installed version): a namespace import would keep all of runtime-core (+20 KB gzip).
import {
  assert,
  CurrentGlobal,
  getGlobalFederationConstructor,
  getRemoteEntry,
  getRemoteInfo,
  helpers,
  loadScript,
  loadScriptNode,
  Module,
  ModuleFederation,
  registerGlobalPlugins,
  satisfy,
  setGlobalFederationConstructor,
  setGlobalFederationInstance,
} from '@module-federation/runtime-core';

export const runtimeCoreForRemotes = {
  assert,
  CurrentGlobal,
  getGlobalFederationConstructor,
  getRemoteEntry,
  getRemoteInfo,
  helpers,
  loadScript,
  loadScriptNode,
  Module,
  ModuleFederation,
  registerGlobalPlugins,
  satisfy,
  setGlobalFederationConstructor,
  setGlobalFederationInstance,
};

/** The global a container built with `externalRuntime` reads its runtime from. */
export function provideRuntimeCore(): void {
  const global = globalThis as { _FEDERATION_RUNTIME_CORE?: unknown };
  global._FEDERATION_RUNTIME_CORE ??= runtimeCoreForRemotes;
}
