// Production build of the catalogue service: one CommonJS bundle for Node, dist/main.js, compiled
// by the repository's Babel config like the web apps. A bundle (not per-file tsc output) because
// the service uses TypeScript from another workspace (@netnet/shared/ids), which Node cannot load.
const path = require('node:path');

module.exports = {
  name: 'catalogue',
  mode: 'production',
  target: 'node20',
  context: __dirname,
  entry: './src/main.ts',
  output: { path: path.join(__dirname, 'dist'), filename: 'main.js', clean: true },
  // Readable stack traces in the service's log; nothing here is downloaded, so size is moot.
  devtool: 'source-map',
  optimization: { minimize: false, nodeEnv: false },
  // Keep Node's own __dirname: media.ts finds catalogue/media beside dist/.
  node: { __dirname: false, __filename: false },
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    rules: [
      {
        test: /\.ts$/,
        loader: 'babel-loader',
        // Node 20, not the browsers in .browserslistrc.
        options: { rootMode: 'upward', targets: { node: '20' } },
      },
    ],
  },
  performance: { hints: false },
  stats: 'errors-warnings',
};
