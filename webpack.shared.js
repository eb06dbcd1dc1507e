// The one factory every app's webpack config calls. An app passes its folder and (for the
// shell) its runtime plugins; everything else is decided here, the exposed pages included (from
// the page table), so the five apps build, share and serve the same way.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const sharedPackage = require('./shared/package.json');
const site = require('@netnet/site');
const { PreloadStartupChunksPlugin } = require('./scripts/webpack/preloadStartupChunks.js');
const { ChunkIntegrityPlugin } = require('./scripts/webpack/chunkIntegrity.js');
const { StableFederationEntryIdPlugin } = require('./scripts/webpack/stableFederationEntryId.js');
// The page table is TypeScript in `shared`; jiti reads it here so a remote exposes exactly its pages.
const { pageList } = require('jiti').createJiti(__filename)('./shared/src/pages.ts');

// Singletons: exactly one React, one jotai store and one `shared` in the page. The router is one
// too: every app reaches it through `shared` (shared/src/router.tsx, Netnet's own). Versions come from the `shared` workspace's package.json.
const SINGLETONS = {
  react: 'react',
  'react/jsx-runtime': 'react',
  'react-dom': 'react-dom',
  'react-dom/client': 'react-dom',
  jotai: 'jotai',
};

/**
 * A production remote's container takes the webpack side of the federation runtime from its page,
 * as it takes the runtime itself (`externalRuntime`): the same code is not downloaded once per remote.
 */
const BUNDLER_RUNTIME = require.resolve('@module-federation/webpack-bundler-runtime/bundler');
const BUNDLER_RUNTIME_FROM_PAGE = path.join(__dirname, 'scripts/webpack/bundlerRuntimeFromPage.mjs');

function browserAliases({ production, isHost }) {
  return production && !isHost ? { [`${BUNDLER_RUNTIME}$`]: BUNDLER_RUNTIME_FROM_PAGE } : {};
}

function sharedSingletons() {
  const shared = {};
  for (const [request, pkg] of Object.entries(SINGLETONS)) {
    shared[request] = { singleton: true, requiredVersion: sharedPackage.dependencies[pkg] };
  }
  shared[sharedPackage.name] = { singleton: true, requiredVersion: `^${sharedPackage.version}` };
  return shared;
}

/** A remote's pages as its container exposes them: './MovieDetail' → its src/pages/MovieDetail.tsx. */
function exposesOf(app) {
  const own = pageList.filter((page) => page.remote === app);
  return Object.fromEntries(own.map(({ module }) => [`./${module}`, `./src/pages/${module}.tsx`]));
}

/**
 * @param {{ dir: string, runtimePlugins?: string[] }} app
 */
/**
 * Where an app's build goes: its dist/, or NETNET_BUILD_DIR (a release builds into a staging
 * folder). The browser build is at the top, the server build in server/.
 */
const outputDir = (dir) => process.env.NETNET_BUILD_DIR || path.join(dir, 'dist');

function createConfig({ dir, runtimePlugins = [] }) {
  const app = path.basename(dir);
  const exposes = exposesOf(app);
  const isHost = app === 'shell';
  const port = site.ports[app];
  const name = site.federationName(app);

  return (_env, argv) => {
    const production = argv.mode !== 'development';
    // A production remote's container leaves the federation runtime to its host, so its own
    // standalone page loads one first (built by a second, tiny compilation).
    const providesRuntime = production && !isHost;
    const config = {
      name: app,
      mode: production ? 'production' : 'development',
      context: dir,
      entry: './src/index.ts',
      // No eval in dev builds either: a remote's dev server can run inside the real site (a dev
      // pin, docs/releases.md), whose Content-Security-Policy has no 'unsafe-eval'. Production
      // maps sit beside their files, unnamed in them: a member's page does not carry the comment
      // (about 300 bytes brotli of a visitor's first page), and a developer adds the map by hand.
      devtool: production ? 'hidden-source-map' : 'cheap-module-source-map',
      output: {
        path: outputDir(dir),
        // Deep links need an absolute base in the host; remotes work out theirs from the script URL.
        publicPath: isHost ? '/' : 'auto',
        uniqueName: name,
        filename: production ? '[name].[contenthash:10].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
        assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
        clean: providesRuntime ? { keep: new RegExp(`^${RUNTIME_SCRIPT}`) } : true,
      },
      resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'], alias: browserAliases({ production, isHost }) },
      module: { rules: moduleRules({ name, production }) },
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
          // One federation runtime per page: the shell provides it (its provideRuntimePlugin); a
          // production remote uses it (≈ 15 KB gzip less per remote). Dev servers keep their own.
          experiments: {
            ...(isHost ? {} : { externalRuntime: production }),
            // A remote loads no remotes of its own: its container leaves out that handler.
            optimization: { target: 'web', ...(isHost ? {} : { disableRemote: true }) },
          },
        }),
        new HtmlWebpackPlugin({
          templateContent: page(providesRuntime ? [`/${RUNTIME_SCRIPT}`] : []),
          // The page runs the app; a remote's remoteEntry.js is for hosts, not for its own page.
          chunks: ['main'],
          favicon: path.join(__dirname, 'shared/src/assets/favicon.svg'),
          scriptLoading: 'defer',
          // The page is served from its app's origin root; absolute paths keep deep links working
          // (a remote's own chunks still resolve from its script URL: publicPath 'auto').
          publicPath: '/',
        }),
        production && new StableFederationEntryIdPlugin(),
        production && isHost && new PreloadStartupChunksPlugin(),
        // A released remote's chunks load with `integrity` from the release's record of hashes.
        production && !isHost && new ChunkIntegrityPlugin(),
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
      optimization: {
        moduleIds: production ? 'deterministic' : 'named',
        splitChunks: production ? splitChunks(isHost) : undefined,
        // Terser may write the ES2020 that every browser of .browserslistrc runs, and takes a third
        // pass: a few bytes off each chunk, which a visitor's first page (110 KB) needs.
        minimizeOptions: { javascript: { ecma: 2020, compress: { ecma: 2020, passes: 3 }, format: { ecma: 2020 } } },
      },
      // A rebuild (a release of a remote already built, the next npm start) reuses parsed modules
      // and minified chunks; the toolchain files below (and what they require) invalidate it.
      cache: {
        type: 'filesystem',
        name: `${app}-${production ? 'production' : 'development'}`,
        buildDependencies: {
          config: [
            __filename,
            path.join(dir, 'webpack.config.js'),
            path.join(__dirname, 'shared/src/pages.ts'),
            path.join(__dirname, 'babel.config.js'),
            path.join(__dirname, '.browserslistrc'),
          ],
        },
      },
      performance: { hints: false },
      stats: production ? 'errors-warnings' : 'minimal',
      devServer: {
        port,
        hot: true,
        historyApiFallback: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        // Reached by these names only. Naming them lets another site's page load this server's
        // scripts (the dev server refuses cross-site script loads from hosts it was not told of):
        // the real site's page, for a developer who pinned this remote there (docs/releases.md).
        // Anything it serves is readable by any page already (CORS *, above).
        allowedHosts: ['localhost', '127.0.0.1', '::1'],
        // Live reload's websocket goes to the dev server on this machine, also when its code runs in
        // a page of the real site (a dev pin, docs/releases.md) rather than on the page's own host.
        client: { overlay: { warnings: false }, webSocketURL: { hostname: 'localhost' } },
        // Dev mode reads the same runtime documents as production, pointing at the dev servers.
        setupMiddlewares(middlewares) {
          middlewares.unshift(
            { name: 'config', path: '/config.json', middleware: json(() => site.runtimeConfig(site.readSite())) },
            { name: 'remotes', path: '/remotes.json', middleware: json(() => site.remoteMap(site.readSite())) },
          );
          return middlewares;
        },
      },
    };
    if (!production) return config;
    if (isHost) return [config, shellServerBuild(dir)];
    return [config, runtimeProvider(dir, app), serverBuild(dir, app, exposes)];
  };
}

/**
 * How a browser build splits its files. A package module reached from two places (a singleton's
 * own chunk and the fallback another package consumes it through, such as react-dom from
 * react-dom/client) gets one chunk of its own however small, so the page never downloads it twice.
 * The shell's style sheets are one file, the frame's: shared's tokens and atoms, then the shell's own.
 */
function splitChunks(isHost) {
  return {
    cacheGroups: {
      packagesOnce: { test: /[\\/]node_modules[\\/]/, chunks: 'async', minChunks: 2, minSize: 0, priority: -5, reuseExistingChunk: true },
      ...(isHost ? { frame: { type: 'css/mini-extract', name: 'frame', chunks: 'all', enforce: true } } : {}),
    },
  };
}

const RUNTIME_SCRIPT = 'federation-runtime.js';

/** The remote's server build (dist/server/remoteEntry.js): the same pages as a container for Node. */
function serverBuild(dir, app, exposes) {
  const name = site.federationName(app);
  const webpack = require('webpack');
  return nodeBuild({
    dir,
    name: `${app}-server`,
    after: app,
    classPrefix: name,
    target: 'async-node',
    entry: {},
    output: {
      // Set when the shell's server starts the container: where the browser build lives.
      publicPath: '',
      uniqueName: `${name}_server`,
      chunkFilename: '[name].js',
      library: { type: 'commonjs-module' },
    },
    plugins: [
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes,
        library: { type: 'commonjs-module' },
        remoteType: 'script',
        shared: Object.fromEntries(Object.entries(sharedSingletons()).map(([key, value]) => [key, { ...value, import: false }])),
        shareStrategy: 'loaded-first',
        manifest: false,
        dts: false,
        runtimePlugins: [require.resolve('./scripts/webpack/serverPublicPath.mjs')],
        experiments: { optimization: { target: 'node' } },
      }),
      new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
      new StableFederationEntryIdPlugin(),
    ],
  });
}

/**
 * The shell's server (dist/server/pageServer.js, shell/src/server/): renders pages for `npm start`
 * and loads remotes' server builds. Everything is bundled, so the shell frame, the router and the
 * singletons it hands to remotes are one copy each.
 */
function shellServerBuild(dir) {
  return nodeBuild({
    dir,
    name: 'shell-server',
    after: 'shell',
    classPrefix: 'shell',
    target: 'node',
    // renderWorker: a release's render process (src/server/renderWorker.ts), started by @netnet/render-sandbox.
    entry: { pageServer: './src/server/index.ts', renderWorker: './src/server/renderWorker.ts' },
    // The shell's own images: the same URLs as in the browser build.
    output: { publicPath: '/', library: { type: 'commonjs2' } },
  });
}

/**
 * What both server builds share: Node code in <build>/server/, built after the browser build,
 * unminified (nothing downloads it), with the style and asset rules of a render to HTML.
 */
function nodeBuild({ dir, name, after, classPrefix, target, entry, output, plugins = [] }) {
  return {
    name,
    dependencies: [after],
    mode: 'production',
    context: dir,
    target,
    entry,
    devtool: false,
    output: {
      path: path.join(outputDir(dir), 'server'),
      filename: '[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      clean: true,
      ...output,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'] },
    module: { rules: moduleRules({ name: classPrefix, production: true, server: true }) },
    plugins,
    optimization: { minimize: false, moduleIds: 'deterministic' },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/** Builds shared/src/federation/provideRuntime.ts alone, after the app, without federation. */
function runtimeProvider(dir, app) {
  return {
    name: `${app}-federation-runtime`,
    dependencies: [app],
    mode: 'production',
    context: dir,
    entry: require.resolve('./shared/src/federation/provideRuntime.ts'),
    output: { path: outputDir(dir), filename: RUNTIME_SCRIPT, clean: false },
    resolve: { extensions: ['.ts', '.js'] },
    module: {
      rules: [{ test: /\.ts$/, exclude: /node_modules/, use: { loader: 'babel-loader', options: { rootMode: 'upward' } } }],
    },
    plugins: [
      new CompressionPlugin({ algorithm: 'brotliCompress', filename: '[path][base].br' }),
      new CompressionPlugin({ algorithm: 'gzip', filename: '[path][base].gz' }),
    ],
    stats: 'errors-warnings',
  };
}

/**
 * How each kind of source file is built. A server build (`server`) renders HTML only: its style
 * modules give the class names the browser build gives, with no CSS, and its images and videos
 * the browser build's URLs, with no file.
 */
function moduleRules({ name, production, server = false }) {
  const styleLoader = production ? MiniCssExtractPlugin.loader : require.resolve('style-loader');
  const css = (modules) => {
    const server_ = server ? { exportOnlyLocals: true, ...(modules ? {} : { mode: 'global' }) } : {};
    const options = modules || server ? { modules: { ...modules, ...server_ } } : {};
    return { loader: 'css-loader', options: { esModule: true, ...options } };
  };
  const styles = (modules) => [...(server ? [] : [styleLoader]), css(modules), sassLoader()];
  return [
    {
      test: /\.[jt]sx?$/,
      exclude: /node_modules/,
      use: { loader: 'babel-loader', options: { rootMode: 'upward', cacheDirectory: true } },
    },
    {
      test: /\.module\.scss$/,
      use: styles({
        namedExport: false,
        exportLocalsConvention: 'as-is',
        // A per-app prefix keeps class names from different teams apart.
        localIdentName: production ? `${name}-[hash:base64:6]` : `${name}__[name]__[local]`,
      }),
    },
    { test: /\.scss$/, exclude: /\.module\.scss$/, use: styles(null) },
    {
      test: /\.(png|jpe?g|webp|avif|svg|mp4|webm|vtt|woff2)$/,
      type: 'asset/resource',
      ...(server ? { generator: { emit: false } } : {}),
    },
  ];
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

function page(scripts = []) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="theme-color" content="#141414" />
    <meta name="description" content="Netnet: unlimited movies, TV shows, and more." />
    <title>Netnet</title>${scripts.map((src) => `\n    <script defer src="${src}"></script>`).join('')}
  </head>
  <body>
    <div id="root"></div>
    <noscript>Netnet needs JavaScript to run.</noscript>
  </body>
</html>`;
}

module.exports = { createConfig, sharedSingletons };
