// Production build of the catalogue service: one CommonJS bundle for Node, dist/main.js, compiled
// by the repository's Babel config like the web apps. A bundle (not per-file tsc output) because
// the service uses TypeScript from other workspaces (@netnet/shared/ids, @netnet/server-kit), which
// Node cannot load. npm packages (fastify, pino, zod) stay out of it, required from node_modules at
// run time like the site's other servers: pino and Fastify load some of their files by path, and an
// image of the site carries node_modules anyway (docs/deploy.md).
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
  externals: [
    ({ request }, callback) =>
      /^(@[\w-][\w.-]*\/)?\w[\w.-]*(\/.*)?$/.test(request ?? '') && !request.startsWith('@netnet/') ? callback(null, `commonjs ${request}`) : callback(),
  ],
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
