// Two modules Module Federation adds are named by absolute paths: its runtime's entry, written to
// node_modules/.federation/entry.<hash>.js with the hash taken over the paths the file imports,
// and the container entry of a remote, whose name lists its exposed files by path. Deterministic
// module ids hash a module's name, so their ids (and every call of them) changed with the folder
// the repository sits in: two clones of one commit built a few bytes apart, and a byte budget's
// verdict depended on where CI cloned. This gives each an id from the app's name alone, before
// webpack numbers the rest (which then avoid those ids).
const { createHash } = require('node:crypto');

const FEDERATION_ENTRY = /[\\/]\.federation[\\/]entry\.[0-9a-f]+\.js$/;

/** What the module is, when it is one of the two; null otherwise. */
function federationRole(module) {
  if (module.constructor.name === 'ContainerEntryModule') return 'container-entry';
  // Concatenated with what it imports, the runtime's entry is the root module of the whole.
  if (FEDERATION_ENTRY.test(module.resource ?? module.rootModule?.resource ?? '')) return 'runtime-entry';
  return null;
}

class StableFederationEntryIdPlugin {
  apply(compiler) {
    compiler.hooks.compilation.tap('StableFederationEntryIdPlugin', (compilation) => {
      compilation.hooks.moduleIds.tap({ name: 'StableFederationEntryIdPlugin', stage: -100 }, (modules) => {
        const { chunkGraph } = compilation;
        const taken = new Set();
        for (const module of modules) {
          const role = federationRole(module);
          if (role === null || chunkGraph.getModuleId(module) !== null) continue;
          // Four digits, as webpack's own ids here; the next one up if two roles met.
          const digest = createHash('sha256').update(`${compilation.outputOptions.uniqueName}:${role}`).digest();
          let id = 1000 + (digest.readUInt32BE(0) % 9000);
          while (taken.has(id)) id = id === 9999 ? 1000 : id + 1;
          taken.add(id);
          chunkGraph.setModuleId(module, id);
        }
      });
    });
  }
}

module.exports = { StableFederationEntryIdPlugin };
