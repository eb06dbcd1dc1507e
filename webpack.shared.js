// The one factory every app's webpack config calls. An app passes its folder, its
// exposed modules and (for the shell) its runtime plugins; everything else is decided here
// so the five apps build, share and serve the same way.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const sharedPackage = require('./shared/package.json');
const site = require('./scripts/site.cjs');

// Singletons: exactly one React, one router, one jotai store and one `shared` in the page.
// Versions come from the `shared` workspace's package.json, the one source of truth.
const SINGLETONS = {
  react: 'react',
  'react/jsx-runtime': 'react',
  'react-dom': 'react-dom',
  'react-dom/client': 'react-dom',
  'react-router': 'react-router',
  'react-router-dom': 'react-router-dom',
  jotai: 'jotai',
};

function sharedSingletons() {
  const shared = {};
  for (const [request, pkg] of Object.entries(SINGLETONS)) {
    shared[request] = { singleton: true, requiredVersion: sharedPackage.dependencies[pkg] };
  }
  shared[sharedPackage.name] = { singleton: true, requiredVersion: `^${sharedPackage.version}` };
  return shared;
}

/**
 * @param {{ dir: string, exposes?: Record<string,string>, runtimePlugins?: string[], title?: string }} app
 */
function createConfig({ dir, exposes = {}, runtimePlugins = [], title = 'Netnet' }) {
  const app = path.basename(dir);
  const isHost = app === 'shell';
  const port = site.ports[app];
  const name = site.federationName(app);

  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const styleLoader = production ? MiniCssExtractPlugin.loader : require.resolve('style-loader');
    return {
      mode: production ? 'production' : 'development',
      context: dir,
      entry: './src/index.ts',
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      output: {
        path: path.join(dir, 'dist'),
        // Deep links need an absolute base in the host; remotes work out theirs from the script URL.
        publicPath: isHost ? '/' : 'auto',
        uniqueName: name,
        filename: production ? '[name].[contenthash:10].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
        assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
        clean: true,
      },
      resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'] },
      module: {
        rules: [
          {
            test: /\.[jt]sx?$/,
            exclude: /node_modules/,
            use: { loader: 'babel-loader', options: { rootMode: 'upward', cacheDirectory: true } },
          },
          {
            test: /\.module\.scss$/,
            use: [
              styleLoader,
              {
                loader: 'css-loader',
                options: {
                  esModule: true,
                  modules: {
                    namedExport: false,
                    exportLocalsConvention: 'as-is',
                    // A per-app prefix keeps class names from different teams apart.
                    localIdentName: production ? `${name}-[hash:base64:6]` : `${name}__[name]__[local]`,
                  },
                },
              },
              sassLoader(),
            ],
          },
          {
            test: /\.scss$/,
            exclude: /\.module\.scss$/,
            use: [styleLoader, 'css-loader', sassLoader()],
          },
          { test: /\.(png|jpe?g|webp|avif|svg|mp4|webm|woff2)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          filename: 'remoteEntry.js',
          exposes,
          shared: sharedSingletons(),
          // One broken remote must not block the start of the others.
          shareStrategy: 'loaded-first',
          runtimePlugins,
          manifest: true,
          dts: false,
        }),
        new HtmlWebpackPlugin({
          title,
          templateContent: page(title),
          favicon: path.join(__dirname, 'shared/src/assets/favicon.svg'),
          scriptLoading: 'defer',
          // The page is served from its app's origin root; absolute paths keep deep links working
          // (a remote's own chunks still resolve from its script URL: publicPath 'auto').
          publicPath: '/',
        }),
        production && new MiniCssExtractPlugin({
          filename: '[name].[contenthash:10].css',
          chunkFilename: '[name].[contenthash:10].css',
        }),
        // Precompressed copies, so the static servers send brotli/gzip without work per request.
        ...(production
          ? ['gzip', 'brotliCompress'].map(
              (algorithm) =>
                new CompressionPlugin({
                  algorithm,
                  filename: algorithm === 'gzip' ? '[path][base].gz' : '[path][base].br',
                  test: /\.(js|css|html|svg|json)$/,
                  threshold: 1024,
                }),
            )
          : []),
      ].filter(Boolean),
      optimization: { moduleIds: production ? 'deterministic' : 'named' },
      performance: { hints: false },
      stats: production ? 'errors-warnings' : 'minimal',
      devServer: {
        port,
        hot: true,
        historyApiFallback: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        client: { overlay: { warnings: false } },
        // Dev mode reads the same runtime documents as production, pointing at the dev servers.
        setupMiddlewares(middlewares) {
          middlewares.unshift(
            { name: 'config', path: '/config.json', middleware: json(() => site.runtimeConfig()) },
            { name: 'remotes', path: '/remotes.json', middleware: json(() => site.remoteMap()) },
          );
          return middlewares;
        },
      },
    };
  };
}

function sassLoader() {
  return {
    loader: 'sass-loader',
    options: { sassOptions: { loadPaths: [path.join(__dirname, 'shared/src/styles')] } },
  };
}

function json(read) {
  return (_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(JSON.stringify(read()));
  };
}

function page(title) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="theme-color" content="#141414" />
    <meta name="description" content="Netnet: unlimited movies, TV shows, and more." />
    <title>${title}</title>
  </head>
  <body>
    <div id="root"></div>
    <noscript>Netnet needs JavaScript to run.</noscript>
  </body>
</html>`;
}

module.exports = { createConfig, sharedSingletons };
