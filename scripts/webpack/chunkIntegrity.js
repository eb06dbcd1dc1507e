// Subresource integrity for a remote's own chunks. A remote's webpack runtime (inside its
// remoteEntry.js, itself loaded with the hash the shell's map vouches for) asks the page for the
// hash of every script and style sheet it adds: the shell answers from the release's
// integrity.json, which it fetched with its own vouched-for hash (shell/src/federation/integrity.ts).
// A file with no hash there (a remote served from its own build, or its standalone page) loads
// as before. Hashes are looked up at run time rather than baked into the build, because
// webpack-subresource-integrity cannot resolve its placeholders in Module Federation builds
// (waysact/webpack-subresource-integrity#176) and the release's files are hashed when published.

// The global the shell answers on (LOOKUP in shell/src/federation/integrity.ts).
const LOOKUP = "netnet:integrity";

/** JS that gives the element `tag`, whose URL is `urlOf`, its integrity when the page knows it. */
const check = (tag, urlOf) =>
  [
    `var netnetIntegrity = typeof self !== "undefined" && typeof self[${JSON.stringify(LOOKUP)}] === "function" && self[${JSON.stringify(LOOKUP)}](${urlOf});`,
    `if (netnetIntegrity) { ${tag}.integrity = netnetIntegrity; ${tag}.crossOrigin = "anonymous"; }`,
  ].join('\n');

const MiniCssExtractPlugin = require('mini-css-extract-plugin');

class ChunkIntegrityPlugin {
  apply(compiler) {
    const { LoadScriptRuntimeModule } = compiler.webpack.runtime;
    compiler.hooks.compilation.tap('ChunkIntegrityPlugin', (compilation) => {
      LoadScriptRuntimeModule.getCompilationHooks(compilation).createScript.tap(
        'ChunkIntegrityPlugin',
        (source) => `${source}\n${check('script', 'script.src')}`,
      );
      // CSS chunks: mini-css-extract-plugin's loader (every production build uses it).
      MiniCssExtractPlugin.getCompilationHooks(compilation).beforeTagInsert.tap(
        'ChunkIntegrityPlugin',
        (source, { tag }) => `${source}\n${check(tag, `${tag}.href`)}`,
      );
    });
  }
}

module.exports = { ChunkIntegrityPlugin };
