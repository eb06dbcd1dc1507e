const { createConfig } = require('../webpack.shared.js');

module.exports = createConfig({
  dir: __dirname,
  runtimePlugins: [
    require.resolve('./src/federation/provideRuntimePlugin.ts'),
    require.resolve('./src/federation/retryPlugin.ts'),
  ],
});
