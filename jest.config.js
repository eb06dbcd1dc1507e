// Runs every workspace's unit tests in one Jest process; the workspaces come from the site table (@netnet/site).
// An ES-module workspace ("type": "module") names its config jest.config.cjs.
const { existsSync } = require('node:fs');
const { testedApps } = require('@netnet/site');

const configOf = (dir) => (existsSync(`${__dirname}/${dir}/jest.config.cjs`) ? `<rootDir>/${dir}/jest.config.cjs` : `<rootDir>/${dir}/jest.config.js`);

// The render sandbox is a library of the servers, not an app of the site table; its tests run here too.
module.exports = {
  projects: [...testedApps, 'render-sandbox'].map(configOf),
  // Jest's default leaves a core idle (cores − 1); on a two-core machine that halves the pace.
  maxWorkers: '100%',
};
