// The one table of the local site: which app runs on which port, and the runtime
// documents the shell reads at boot. Used by webpack dev servers, `npm start` and the e2e tests.
const path = require('node:path');

const ports = {
  shell: 8080,
  'remote-auth': 3001,
  'remote-browse': 3002,
  'remote-title': 3003,
  'remote-search': 3004,
  catalogue: 7070,
  authEmulator: 9099,
  // Published releases (deploy/<remote>/<version>/), served as a CDN would.
  deploy: 8090,
};

const remotes = ['remote-auth', 'remote-browse', 'remote-title', 'remote-search'];

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
 * `npm start` lays the rollout of published releases over this (scripts/deploy/remoteMap.mjs).
 */
function remoteMap(env = process.env) {
  return {
    remotes: Object.fromEntries(
      remotes.map((app) => [app, { stable: { version: builtVersion(app), entry: `${origin(app, env)}/mf-manifest.json` } }]),
    ),
  };
}

module.exports = { ports, remotes, federationName, runtimeConfig, remoteMap, deployOrigin, deployDir };
