// The shell's entry script is small; what the first screen waits for is what it loads next: the
// app chunk behind its async boundary and the shared singletons (React, jotai, shared) behind
// it. Listing them in the page as <link rel=preload> fetches them alongside the entry script
// instead of one round trip after it. Their style sheets are linked too: a page the server
// rendered is styled from its first paint (mini-css-extract finds them there and adds no copy).
const HtmlWebpackPlugin = require('html-webpack-plugin');

class PreloadStartupChunksPlugin {
  apply(compiler) {
    compiler.hooks.compilation.tap('PreloadStartupChunksPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('PreloadStartupChunksPlugin', (data) => {
        const publicPath = compilation.outputOptions.publicPath;
        const links = startupFiles(compilation).map((file) => ({
          tagName: 'link',
          voidTag: true,
          attributes: file.endsWith('.css')
            ? { rel: 'stylesheet', href: `${publicPath}${file}` }
            : { rel: 'preload', as: 'script', href: `${publicPath}${file}` },
          meta: { plugin: 'PreloadStartupChunksPlugin' },
        }));
        data.headTags.unshift(...links);
        return data;
      });
    });
  }
}

/** JS and CSS files of the entry's async chunk groups, and of the shared modules those consume. */
function startupFiles(compilation) {
  const entry = compilation.entrypoints.get('main');
  const groups = new Set();
  for (const child of entry.getChildren()) {
    groups.add(child);
    for (const grandchild of child.getChildren()) {
      if (grandchild.origins.some((origin) => origin.module?.type === 'consume-shared-module')) groups.add(grandchild);
    }
  }
  const files = new Set();
  for (const group of groups) {
    for (const chunk of group.chunks) for (const file of chunk.files) if (/\.(js|css)$/.test(file)) files.add(file);
  }
  return [...files];
}

module.exports = { PreloadStartupChunksPlugin };
