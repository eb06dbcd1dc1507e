// The one table of the local site: which apps there are, which port each runs on, and the runtime
// documents the shell reads at boot. Used by webpack dev servers, `npm start`, the build, Jest and
// the e2e tests; adding an app is one row in `apps`.
const path = require('node:path');

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

/** Where browsers reach the site: the shell's origin. */
const siteUrl = (env = process.env) => origin('shell', env);

/** Module Federation container names must be JS identifiers: remote-title → remote_title. */
const federationName = (app) => app.replace(/-/g, '_');

const origin = (app, env = process.env) =>
  env[`NETNET_${federationName(app).toUpperCase()}_URL`] || `http://localhost:${ports[app]}`;

/** Where browsers reach the published releases, and where they live on disk. */
const deployOrigin = (env = process.env) => env.NETNET_DEPLOY_URL || `http://localhost:${ports.deploy}`;
const deployDir = (env = process.env) => path.resolve(env.NETNET_DEPLOY_DIR || path.join(__dirname, '..', 'deploy'));

/** What a remote's own build says it is; the label of the build served from its dist. */
const builtVersion = (app) => require(`../${app}/package.json`).version;

/** /config.json: everything the browser needs at run time; never baked into a bundle. */
function runtimeConfig(env = process.env) {
  const realFirebase = Boolean(env.FIREBASE_API_KEY && env.FIREBASE_PROJECT_ID);
  return {
    catalogueUrl: env.NETNET_CATALOGUE_URL || `http://localhost:${ports.catalogue}`,
    firebase: realFirebase
      ? {
          apiKey: env.FIREBASE_API_KEY,
          authDomain: env.FIREBASE_AUTH_DOMAIN || `${env.FIREBASE_PROJECT_ID}.firebaseapp.com`,
          projectId: env.FIREBASE_PROJECT_ID,
          appId: env.FIREBASE_APP_ID || undefined,
        }
      : { apiKey: 'demo-netnet-key', authDomain: 'demo-netnet.firebaseapp.com', projectId: 'demo-netnet' },
    authEmulatorUrl: realFirebase ? null : env.NETNET_AUTH_EMULATOR_URL || `http://127.0.0.1:${ports.authEmulator}`,
  };
}

/**
 * /remotes.json when no release is rolled out: each remote from its own build on its own origin.
 * `npm start` lays the rollout of published releases over this (control-plane/src/rollouts/remoteMap.ts).
 */
function remoteMap(env = process.env) {
  return {
    remotes: Object.fromEntries(
      remotes.map((app) => [app, { stable: { version: builtVersion(app), entry: `${origin(app, env)}/mf-manifest.json` } }]),
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
  siteUrl,
  origin,
  federationName,
  runtimeConfig,
  remoteMap,
  deployOrigin,
  deployDir,
};
