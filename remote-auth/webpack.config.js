const { createConfig } = require('../webpack.shared.js');

module.exports = createConfig({
  dir: __dirname,
  exposes: {
    './Landing': './src/pages/Landing.tsx',
    './Login': './src/pages/Login.tsx',
  },
});
