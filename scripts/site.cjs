// The one table of the local site: which app runs on which port, and the runtime
// documents the shell reads at boot. Used by webpack dev servers, `npm start` and the e2e tests.
const ports = {
  shell: 8080,
  'remote-auth': 3001,
  'remote-browse': 3002,
  'remote-title': 3003,
  'remote-search': 3004,
  catalogue: 7070,
  authEmulator: 9099,
};

const remotes = ['remote-auth', 'remote-browse', 'remote-title', 'remote-search'];

/** Module Federation container names must be JS identifiers: remote-title → remote_title. */
const federationName = (app) => app.replace(/-/g, '_');

const origin = (app, env = process.env) =>
  env[`NETNET_${federationName(app).toUpperCase()}_URL`] || `http://localhost:${ports[app]}`;

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

/** /remotes.json: where each remote's manifest lives. Moving a remote is an edit of this map. */
function remoteMap(env = process.env) {
  return {
    remotes: Object.fromEntries(remotes.map((app) => [app, { entry: `${origin(app, env)}/mf-manifest.json` }])),
  };
}

module.exports = { ports, remotes, federationName, runtimeConfig, remoteMap };
