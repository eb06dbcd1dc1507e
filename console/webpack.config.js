// The console's own small bundle (not a federated app: it composes nothing and nothing composes
// it): one script, one style sheet with the product's design tokens, index.html, each with a
// brotli copy. The control-plane API serves the result under /console/ (control-plane/src/api/console/routes.ts).
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');

module.exports = (_env, argv) => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    entry: { console: path.join(__dirname, 'src/main.tsx') },
    output: {
      path: path.join(__dirname, 'dist'),
      publicPath: '/console/',
      filename: '[name].[contenthash:10].js',
      clean: true,
    },
    // No eval: the console's policy allows its own script files only.
    devtool: production ? false : 'cheap-module-source-map',
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'] },
    module: {
      rules: [
        { test: /\.[jt]sx?$/, exclude: /node_modules/, use: { loader: 'babel-loader', options: { rootMode: 'upward', cacheDirectory: true } } },
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
};
