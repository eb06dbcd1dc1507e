// Runs every workspace's unit tests in one Jest process; the workspaces come from scripts/site.cjs.
const { testedApps } = require('./scripts/site.cjs');

module.exports = {
  projects: testedApps.map((dir) => `<rootDir>/${dir}/jest.config.js`),
  // Jest's default leaves a core idle (cores − 1); on a two-core machine that halves the pace.
  maxWorkers: '100%',
};
