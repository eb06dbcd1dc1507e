// A remote's production build copied as another version, for tests and benchmarks that publish
// releases of their own with `npm run release -- <remote> --version <v> --from <copy>` (no build
// here). The manifest names the new version; `without` leaves one exposed page's chunks out, as a
// broken release would be.
import { cpSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Copies `<root>/<remote>/dist` to `copy` as `version`.
 * @param {{ root: string, remote: string, version: string, copy: string, without?: string }} options
 */
export function copyBuildAs({ root, remote, version, copy, without }) {
  cpSync(join(root, remote, 'dist'), copy, { recursive: true });
  const manifestPath = join(copy, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.metaData.buildInfo.buildVersion = version;
  writeFileSync(manifestPath, JSON.stringify(manifest));
  // Its precompressed copies hold the old text: the releases origin would serve them, not matching its hash.
  for (const suffix of ['.br', '.gz']) rmSync(`${manifestPath}${suffix}`, { force: true });
  if (!without) return;
  const chunks = readdirSync(copy).filter((file) => file.startsWith(`__federation_expose_${without}.`) && file.includes('.js'));
  if (chunks.length === 0) throw new Error(`no chunk of ${without} in ${remote}'s build`);
  for (const name of chunks) unlinkSync(join(copy, name));
}

/**
 * Rewrites a copied build's server/remoteEntry.js so that its pages do something on render: from
 * the fifth render of a render process on (past its warm-up and the upload's check, as a build that
 * waits before it strikes would), each render first runs `onRender`. `atImport` runs once, before
 * the build's own code; `prelude` is code `onRender` may call.
 * @param {{ copy: string, onRender?: string, atImport?: string, prelude?: string }} options
 */
export function rewriteServerPages({ copy, onRender, atImport = '', prelude = '' }) {
  const entry = join(copy, 'server', 'remoteEntry.js');
  for (const suffix of ['.br', '.gz']) rmSync(`${entry}${suffix}`, { force: true });
  // webpack exports the container's get and init as getters that cannot be reassigned (an
  // assignment is silently ignored): the wrapper replaces the exports instead.
  const wrapper = onRender
    ? `;(function () {
  ${prelude}
  var renders = 0;
  var container = module.exports;
  module.exports = {
    init: function (shareScope, initScope, options) { return container.init(shareScope, initScope, options); },
    get: function (name, scope) {
      return Promise.resolve(container.get(name, scope)).then(function (factory) {
        return function () {
          var exported = factory();
          var Page = exported && exported.default;
          if (typeof Page !== 'function') return exported;
          function Rewritten(props) {
            renders += 1;
            if (renders > 4) { ${onRender} }
            return Page(props);
          }
          return Object.assign({}, exported, { default: Rewritten });
        };
      });
    },
  };
})();`
    : '';
  writeFileSync(entry, `${atImport}\n${readFileSync(entry, 'utf8')}\n${wrapper}\n`);
}
