import { BUNDLER_RUNTIME_GLOBAL, provideBundlerRuntime } from './bundlerRuntime';

const global = globalThis as Record<string, unknown>;
afterEach(() => delete global[BUNDLER_RUNTIME_GLOBAL]);

it('hands containers the page’s bundler functions, never the provider’s own share scopes, and keeps the first provider', () => {
  const consumes = () => {};
  const attachShareScopeMap = () => {};
  provideBundlerRuntime({ bundlerRuntime: { consumes, S: { default: {} } }, attachShareScopeMap });
  provideBundlerRuntime({ bundlerRuntime: { consumes: () => {} }, attachShareScopeMap: () => {} });

  expect(global[BUNDLER_RUNTIME_GLOBAL]).toEqual({ bundlerRuntime: { consumes }, attachShareScopeMap });
  expect((global[BUNDLER_RUNTIME_GLOBAL] as { bundlerRuntime: { consumes: unknown } }).bundlerRuntime.consumes).toBe(consumes);
});

it('provides nothing when the page has no federation runtime', () => {
  provideBundlerRuntime(undefined);
  expect(global[BUNDLER_RUNTIME_GLOBAL]).toBeUndefined();
});
