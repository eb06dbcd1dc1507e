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
 * render `strikeAfter + 1` of a render process on (by default past its warm-up and the upload's
 * check, as a build that waits before it strikes would), each render first runs `onRender`.
 * `atImport` runs once, before the build's own code. Both may call `report(value)`: a render
 * process has no network, so what the build got comes back in the HTML it renders, as
 * `<output hidden data-hostile-build="<name>" data-hostile-report="<JSON list>">` after the page
 * (readReports in hostileBuilds.ts reads it). The container's `init()` options are kept as
 * `initOptions` for the code to compare.
 * @param {{ copy: string, name?: string, onRender?: string, atImport?: string, strikeAfter?: number }} options
 */
export function rewriteServerPages({ copy, name = '', onRender, atImport = '', strikeAfter = 4 }) {
  const entry = join(copy, 'server', 'remoteEntry.js');
  for (const suffix of ['.br', '.gz']) rmSync(`${entry}${suffix}`, { force: true });
  // Reports are kept on globalThis, so code at import and at render share them; JSON.stringify is
  // kept before any of the build's code can patch it.
  const prelude = `var hostile = globalThis.__hostile || (globalThis.__hostile = { reports: [], stringify: JSON.stringify, initOptions: null });
function report(value) { hostile.reports.push(value); }`;
  // webpack exports the container's get and init as getters that cannot be reassigned (an
  // assignment is silently ignored): the wrapper replaces the exports instead. React comes from
  // the share scope the host hands init(), as the build's own pages get it.
  const wrapper = `;(function () {
  ${prelude}
  var React = null;
  var renders = 0;
  var container = module.exports;
  module.exports = {
    init: function (shareScope, initScope, options) {
      hostile.initOptions = options;
      try { var versions = shareScope.react; var shared = versions[Object.keys(versions)[0]]; React = shared.lib ? shared.lib() : null; } catch (e) {}
      return container.init(shareScope, initScope, options);
    },
    get: function (name, scope) {
      return Promise.resolve(container.get(name, scope)).then(function (factory) {
        return function () {
          var exported = factory();
          var Page = exported && exported.default;
          if (typeof Page !== 'function') return exported;
          function Rewritten(props) {
            renders += 1;
            if (renders > ${Number(strikeAfter)}) { ${onRender ?? ''} }
            var page = Page(props);
            if (!React || hostile.reports.length === 0) return page;
            return React.createElement(React.Fragment, null, page, React.createElement('output', { hidden: true, 'data-hostile-build': ${JSON.stringify(name)}, 'data-hostile-report': hostile.stringify(hostile.reports) }));
          }
          return Object.assign({}, exported, { default: Rewritten });
        };
      });
    },
  };
})();`;
  const atStart = atImport ? `${prelude}\n${atImport}` : '';
  writeFileSync(entry, `${atStart}\n${readFileSync(entry, 'utf8')}\n${wrapper}\n`);
}
