// The one table of the local site: which apps there are, which port each runs on, the runtime
// documents the shell reads at boot, and the variables those are read from. Used by the builds and
// dev servers, `npm start`, Jest, ESLint, the e2e tests, and by the servers and commands, whose
// configs compose its variables (docs/environment.md); adding an app is one row in `apps`.
const path = require('node:path');
const { z } = require('zod');

/**
 * Every workspace with code of its own. `kind`: 'host' (the shell, a web app), 'remote' (a web app
 * the shell composes), 'service' (a Node server), 'library' (no server; `shared` ships inside the
 * web apps). `port` is where `npm start` and the dev servers serve it.
 */
const apps = {
  shared: { kind: 'library' },
  // The rollout rule (which release a member gets), bundled into the shell and run by the control plane.
  rollout: { kind: 'library' },
  catalogue: { kind: 'service', port: 7070 },
  shell: { kind: 'host', port: 8080 },
  'remote-auth': { kind: 'remote', port: 3001 },
  'remote-browse': { kind: 'remote', port: 3002 },
  'remote-title': { kind: 'remote', port: 3003 },
  'remote-search': { kind: 'remote', port: 3004 },
  // The release console: a web app of its own (not composed by the shell), served by the
  // control-plane API under /console/, so it has no port of its own.
  console: { kind: 'console' },
};

const named = (test) => Object.keys(apps).filter((app) => test(apps[app]));
/** The remotes the shell composes. */
const remotes = named((app) => app.kind === 'remote');
/** The apps built by webpack and served to browsers: the shell and the remotes. */
const webApps = named((app) => app.kind === 'host' || app.kind === 'remote');
/** The apps `npm start` builds (scripts/build.mjs). */
const builtApps = named((app) => app.kind !== 'library');
/** The workspaces with unit tests (jest.config.js): all of them. */
const testedApps = Object.keys(apps);

const ports = {
  ...Object.fromEntries(Object.entries(apps).flatMap(([app, { port }]) => (port ? [[app, port]] : []))),
  authEmulator: 9099,
  // Published releases (deploy/<remote>/<version>/), served as a CDN would.
  deploy: 8090,
};

/** Module Federation container names must be JS identifiers: remote-title → remote_title. */
const federationName = (app) => app.replace(/-/g, '_');

/** What a remote's own build says it is; the label of the build served from its dist. */
const builtVersion = (app) => require(`../${app}/package.json`).version;

// Variables in the shape of @netnet/server-kit's variable(): a name, what it may hold (its default
// included) and what it means. Each process composes the groups it reads into its one config.
const variable = (name, schema, meaning) => ({ name, schema, meaning });
const text = z.string().optional();
/** An http(s) origin or base URL, kept without a trailing slash (paths are appended to it). */
const httpUrl = (fallback) =>
  z
    .url({ protocol: /^https?$/, error: 'not an http(s) URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .default(fallback);

const camel = (app) => app.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
/** The key of an app's origin in a config: catalogue → catalogueUrl, remote-title → remoteTitleUrl. */
const originKey = (app) => `${camel(app)}Url`;
const originMeaning = (app) =>
  app === 'catalogue'
    ? "where browsers reach the catalogue, and where the server's renders call it"
    : app === 'shell'
      ? 'where browsers reach the site (the e2e tests and benchmarks)'
      : `where browsers reach ${app}'s own build, the one a rollout map that names no release of it serves`;
const origins = Object.fromEntries(
  Object.entries(apps).flatMap(([app, { port }]) =>
    port ? [[originKey(app), variable(`NETNET_${federationName(app).toUpperCase()}_URL`, httpUrl(`http://localhost:${port}`), originMeaning(app))]] : [],
  ),
);

/** Where releases live on disk; the embedded database's data is in it too (`.database/`). */
const DEPLOY_DIR_VARIABLES = {
  deployDir: variable(
    'NETNET_DEPLOY_DIR',
    z.string().transform((dir) => path.resolve(dir)).default(path.join(__dirname, '..', 'deploy')),
    "where releases live, and the embedded database's data (.database/) when DATABASE_URL is unset (git-ignored deploy/)",
  ),
};

/** What /remotes.json points browsers at: the published releases' origin and each remote's own build. */
const MAP_VARIABLES = {
  deployUrl: variable('NETNET_DEPLOY_URL', httpUrl(`http://localhost:${ports.deploy}`), 'where browsers (and the instances) reach the published releases'),
  ...Object.fromEntries(remotes.map((app) => [originKey(app), origins[originKey(app)]])),
};

/** What /config.json tells a page: the catalogue, and Firebase or its emulator. */
const RUNTIME_VARIABLES = {
  catalogueUrl: origins.catalogueUrl,
  firebaseApiKey: variable('FIREBASE_API_KEY', text, 'with FIREBASE_PROJECT_ID: a real Firebase project instead of the emulator (read at run time, never built into a bundle)'),
  firebaseProjectId: variable('FIREBASE_PROJECT_ID', text, 'with FIREBASE_API_KEY: the real Firebase project'),
  firebaseAuthDomain: variable('FIREBASE_AUTH_DOMAIN', text, "the real project's auth domain (default <project>.firebaseapp.com)"),
  firebaseAppId: variable('FIREBASE_APP_ID', text, "the real project's app id"),
  authEmulatorUrl: variable('NETNET_AUTH_EMULATOR_URL', httpUrl(`http://127.0.0.1:${ports.authEmulator}`), 'where browsers reach the Auth emulator (unused with a real Firebase project)'),
};

/** Where the tools reach the site itself. */
const SITE_URL_VARIABLES = { shellUrl: origins.shellUrl };

/** Every variable of the table: what the tools read (readSite). */
const SITE_VARIABLES = { ...DEPLOY_DIR_VARIABLES, ...MAP_VARIABLES, ...RUNTIME_VARIABLES, ...SITE_URL_VARIABLES };

/**
 * The table's settings from `env`, for the tools (webpack's dev servers, the e2e tests, the
 * benchmarks), which plain Node runs without @netnet/server-kit's TypeScript: read as its
 * readConfig reads a process's (an empty variable is unset), every wrong one named.
 */
function readSite(env = process.env) {
  const settings = {};
  const wrong = [];
  for (const [key, { name, schema, meaning }] of Object.entries(SITE_VARIABLES)) {
    const raw = env[name] === '' ? undefined : env[name];
    const read = schema.safeParse(raw);
    if (read.success) settings[key] = read.data;
    else wrong.push(`${name}=${JSON.stringify(raw ?? '')}: ${read.error.issues.map((issue) => issue.message).join('; ')} (${meaning})`);
  }
  if (wrong.length > 0) throw new Error(`The environment is not right:\n  ${wrong.join('\n  ')}`);
  return Object.freeze(settings);
}

/** Where browsers reach an app with a port of its own, from a config holding its origin variable. */
function origin(app, settings) {
  const url = settings[originKey(app)];
  if (typeof url !== 'string') throw new Error(`the settings hold no origin of ${app} (NETNET_${federationName(app).toUpperCase()}_URL)`);
  return url;
}

/** /config.json: everything the browser needs at run time; never baked into a bundle. */
function runtimeConfig(settings) {
  const realFirebase = Boolean(settings.firebaseApiKey && settings.firebaseProjectId);
  return {
    catalogueUrl: settings.catalogueUrl,
    firebase: realFirebase
      ? {
          apiKey: settings.firebaseApiKey,
          authDomain: settings.firebaseAuthDomain ?? `${settings.firebaseProjectId}.firebaseapp.com`,
          projectId: settings.firebaseProjectId,
          appId: settings.firebaseAppId,
        }
      : { apiKey: 'demo-netnet-key', authDomain: 'demo-netnet.firebaseapp.com', projectId: 'demo-netnet' },
    authEmulatorUrl: realFirebase ? null : settings.authEmulatorUrl,
  };
}

/**
 * /remotes.json when no release is rolled out: each remote from its own build on its own origin.
 * `npm start` lays the rollout of published releases over this (control-plane/src/rollouts/remoteMap.ts).
 */
function remoteMap(settings) {
  return {
    remotes: Object.fromEntries(
      remotes.map((app) => [app, { stable: { version: builtVersion(app), entry: `${origin(app, settings)}/mf-manifest.json` } }]),
    ),
  };
}

module.exports = {
  apps,
  ports,
  remotes,
  webApps,
  builtApps,
  testedApps,
  federationName,
  DEPLOY_DIR_VARIABLES,
  MAP_VARIABLES,
  RUNTIME_VARIABLES,
  SITE_URL_VARIABLES,
  SITE_VARIABLES,
  readSite,
  origin,
  runtimeConfig,
  remoteMap,
};
