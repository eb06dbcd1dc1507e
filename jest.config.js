// Runs every workspace's unit tests in one Jest process.
module.exports = {
  projects: ['shared', 'catalogue', 'shell', 'remote-auth', 'remote-browse', 'remote-title', 'remote-search'].map(
    (dir) => `<rootDir>/${dir}/jest.config.js`,
  ),
};
