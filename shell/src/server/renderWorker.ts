import vm from 'node:vm';
import { createInstance, type ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as jsxRuntime from 'react/jsx-runtime';
import * as jotai from 'jotai';
import * as shared from '@netnet/shared';
import { setRuntimeConfig, type AuthState, type PageModule, type RuntimeConfig } from '@netnet/shared';
import sharedPackage from '@netnet/shared/package.json';
import { samplePages } from '@netnet/render-sandbox';
import { openServerChannel } from '@netnet/render-sandbox/worker';
import type { LoadMessage, RenderMessage } from '@netnet/render-sandbox/worker';
import { federationName } from '../federation/remotes';
import { renderArea } from './renderArea';

// The render process of one release (docs/sandbox.md): started by the shell's server (or the
// publish check) in a bubblewrap sandbox with no network and no environment, as its area's own
// user, under Node's permission model, it loads the release's server build and renders the shell
// frame with the release's page in it. The code here is ours and runs first (its channel and its
// fetch are in place before the release's code loads); everything the release's code does after
// that stays in this process, which the server kills and replaces when it misses a deadline or
// breaks the channel.

const versionOf = (range: string) => range.replace(/^[^\d]*/, '');
const singleton = (lib: unknown, version: string, requiredVersion: string) => ({
  version,
  lib: () => lib,
  shareConfig: { singleton: true, requiredVersion },
});
const deps = sharedPackage.dependencies;
/** The singletons the release's build leaves to its host: one React, one router, one `shared` per render. */
const SHARED = {
  react: singleton(React, React.version, deps.react),
  'react/jsx-runtime': singleton(jsxRuntime, React.version, deps.react),
  'react-dom': singleton(ReactDOM, ReactDOM.version, deps['react-dom']),
  jotai: singleton(jotai, versionOf(deps.jotai), deps.jotai),
  [sharedPackage.name]: singleton(shared, sharedPackage.version, `^${sharedPackage.version}`),
};

// Node's own require (webpack leaves this name alone): a container may ask for Node's built-in
// modules; the permission model decides what they may touch.
declare const __non_webpack_require__: NodeJS.Require;

/** How long a warm-up render may wait for its catalogue calls. */
const WARM_UP_DATA_MS = 1_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** Why the release failed to load, in words; a reach past the sandbox is named for what it tried. */
function loadFailure(error: unknown): string {
  const { code, permission, resource } = (error ?? {}) as { code?: unknown; permission?: unknown; resource?: unknown };
  if (code === 'ERR_ACCESS_DENIED') return `it reached outside what a render process may touch (${[permission, resource].filter(Boolean).join(' ')})`;
  return messageOf(error);
}

/** Runs a CommonJS container's code and returns its exports (the container). */
function evaluate(code: string, filename: string): unknown {
  const module = { exports: {} as unknown };
  const run = new vm.Script(`(function (exports, module, require) {${code}\n})`, { filename }).runInThisContext() as (
    exports: unknown,
    module: { exports: unknown },
    require: NodeJS.Require,
  ) => void;
  run(module.exports, module, __non_webpack_require__);
  return module.exports;
}

const pages = new Map<string, PageModule['default']>();

async function load({ remote, entry, publicPath, code, modules, config }: LoadMessage): Promise<void> {
  // The server's own messages: the site's whole config, and shared's auth states (the sandbox passes both through).
  setRuntimeConfig(config as RuntimeConfig);
  const name = federationName(remote);
  const container = evaluate(code, entry) as { get?: unknown; init?: unknown } | null;
  if (!container || typeof container.get !== 'function' || typeof container.init !== 'function') {
    throw new Error('it does not export a Module Federation container (get and init)');
  }
  const release: ModuleFederationRuntimePlugin = {
    name: 'netnet-release-code',
    loadEntry: async () => container as never,
    beforeInitContainer(args) {
      (args.remoteEntryInitOptions as Record<string, unknown>).netnetPublicPath = publicPath;
      return args;
    },
  };
  const federation = createInstance({
    name: 'netnet_render_process',
    remotes: [{ name, entry, entryGlobalName: `${name}@${entry}` }],
    shared: SHARED,
    shareStrategy: 'loaded-first',
    plugins: [release],
  });
  for (const module of modules) {
    const page = await federation.loadRemote<Partial<PageModule>>(`${name}/${module}`);
    if (!page?.default) throw new Error(`${name}/${module} did not provide a page.`);
    pages.set(module, page.default);
  }
  // One render of each page, with its catalogue calls, so a member's first render does not pay
  // for a cold process (its code, its first connection to the catalogue, the fetch client's own
  // start) and miss its deadline: without data, a busy machine's first title page still missed it.
  // A catalogue that is away costs this at most WARM_UP_DATA_MS a page; renders fall back meanwhile.
  for (const sample of samplePages(remote)) {
    const Page = pages.get(sample.module);
    if (Page) await renderArea({ location: sample.location, auth: sample.auth, page: { key: sample.key, Page }, budgetMs: WARM_UP_DATA_MS }).catch(() => {});
  }
}

// bubblewrap names the working folder in PWD; the release gets no environment at all.
delete process.env.PWD;

const channel = openServerChannel({
  load(message) {
    load(message).then(
      () => channel.send({ type: 'ready' }),
      // Said, then gone: the server starts a fresh process for the next try.
      (error: unknown) => channel.send({ type: 'load-failed', message: loadFailure(error) }, () => process.exit(1)),
    );
  },
  render: (message) => void render(message),
});
const send = channel.send;

async function render({ id, module, key, location, auth, budgetMs }: RenderMessage): Promise<void> {
  const Page = pages.get(module);
  if (!Page) {
    send({ type: 'render-failed', id, message: `this release has no page ${module}.` });
    return;
  }
  try {
    const result = await renderArea({ location, auth: auth as AuthState, page: { key, Page }, budgetMs });
    send({ type: 'rendered', id, html: result.html, catalogue: result.catalogue, errors: result.errors.map(messageOf), cutShort: result.cutShort });
  } catch (error) {
    send({ type: 'render-failed', id, message: messageOf(error) });
  }
}

// A promise the release forgot to await fails nothing but itself, as it would in a browser.
process.on('unhandledRejection', (reason) => console.warn(`a promise nobody awaited was rejected: ${messageOf(reason)}`));
