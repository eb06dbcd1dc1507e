// The console's own small bundle (not a federated app: it composes nothing and nothing composes
// it), two builds:
// - for the browser: the first view's script (the frame and every remote's overview), the views
//   loaded later as chunks of their own (src/laterViews.ts), one style sheet with the product's
//   design tokens, index.html, each with a brotli copy;
// - for Node: src/firstView.tsx as dist/server/firstView.cjs, which the control-plane API calls to
//   render the first view into the page. React's production build is inside it (the API's process
//   has no NODE_ENV to pick one by, and no other use for React).
// The control-plane API serves the result under /console/ (control-plane/src/api/console/routes.ts).
const path = require('node:path');
const webpack = require('webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');

const babel = { test: /\.[jt]sx?$/, exclude: /node_modules/, use: { loader: 'babel-loader', options: { rootMode: 'upward', cacheDirectory: true } } };

module.exports = (_env, argv) => {
  const production = argv.mode !== 'development';
  const mode = production ? 'production' : 'development';
  const browser = {
    name: 'browser',
    mode,
    entry: { console: path.join(__dirname, 'src/main.tsx') },
    output: {
      path: path.join(__dirname, 'dist'),
      publicPath: '/console/',
      filename: '[name].[contenthash:10].js',
      chunkFilename: '[name].[contenthash:10].js',
      // The server build writes dist/server/ beside this one.
      clean: { keep: /^server\// },
    },
    // No eval: the console's policy allows its own script files only.
    devtool: production ? false : 'cheap-module-source-map',
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'] },
    module: {
      rules: [
        babel,
        { test: /\.s?css$/, use: [MiniCssExtractPlugin.loader, 'css-loader', { loader: 'sass-loader', options: { sassOptions: { loadPaths: [path.join(__dirname, '../shared/src/styles')] } } }] },
      ],
    },
    plugins: [
      new MiniCssExtractPlugin({ filename: '[name].[contenthash:10].css' }),
      new HtmlWebpackPlugin({ template: path.join(__dirname, 'src/index.html'), scriptLoading: 'defer' }),
      new CompressionPlugin({ algorithm: 'brotliCompress', filename: '[path][base].br', test: /\.(js|css|html)$/, threshold: 0, minRatio: 1 }),
    ],
    performance: { hints: false },
  };
  const server = {
    name: 'server',
    mode,
    target: 'node20',
    entry: { firstView: path.join(__dirname, 'src/firstView.tsx') },
    output: { path: path.join(__dirname, 'dist/server'), filename: '[name].cjs', library: { type: 'commonjs2' }, clean: true },
    devtool: false,
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'] },
    module: { rules: [babel] },
    // The later views' chunks, which the first view never renders, stay in the one file.
    plugins: [new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
    optimization: { minimize: false },
    performance: { hints: false },
  };
  return [browser, server];
};
