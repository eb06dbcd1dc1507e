const { createConfig } = require('../webpack.shared.js');

module.exports = createConfig({
  dir: __dirname,
  exposes: {
    './Search': './src/pages/Search.tsx',
  },
});
