// The linter is the guard of the dependency rules and of the raw-HTML ban described in
// docs/architecture.md. `npm run lint` runs it on every workspace; scripts/lint/rules.test.mjs plants
// a violation of each guard rule and checks that this config catches it.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

const root = import.meta.dirname;
const require = createRequire(import.meta.url);
const packageJson = (dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));

// The workspaces come from the root package.json and the remotes from the site table, so a new
// app is guarded the moment it is added there.
const workspaces = packageJson('.').workspaces;
const { remotes, apps: siteTable } = require('@netnet/site');
// The site's own workspace (`site/`: the table every build, server and tool reads, and the programs
// that start the site) is no app of it; nothing is kept from importing the table.
const SITE = 'site';
// Libraries (`shared`, `rollout`) are imported by apps and import none.
const apps = workspaces.filter((workspace) => siteTable[workspace]?.kind !== 'library' && workspace !== SITE);
const packageName = Object.fromEntries(workspaces.map((workspace) => [workspace, packageJson(workspace).name]));

// What `@netnet/shared` lets other packages import: the files its `exports` name, nothing deeper.
const sharedEntries = Object.values(packageJson('shared').exports)
  .filter((file) => !file.endsWith('package.json'))
  .map((file) => file.replace(/^\.\/src\//, './'));

// What `@netnet/control-plane` lets other packages import: the files its `exports` name.
const controlPlaneEntries = Object.values(packageJson('control-plane').exports).map((file) => file.replace(/^\.\/src\//, './'));

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Specifiers that reach a workspace by name: `remote-title`, `remote-title/src/x`, `@netnet/remote-title`… */
const byName = (workspace) => {
  const names = [...new Set([workspace, packageName[workspace], `@netnet/${workspace}`])];
  return `^(${names.map(escape).join('|')})(/.*)?$`;
};

const ONE_ROUTER =
  "Netnet's router is `@netnet/shared`'s, one for the whole page (docs/architecture.md, \"Singletons\"); React Router is not a dependency.";
const ROLLOUT_IN_SPECS =
  'A spec imports the rollout package as an ES module, `await import(pathToFileURL(…/rollout/src/index.ts).href)`, never statically (Playwright would cache it as CommonJS).';
const CONTROL_PLANE_EXPORTS_ONLY =
  'Import `@netnet/control-plane/<entry>` (one of the entries in control-plane/package.json `exports`), never a file inside it.';
const SHARED_EXPORTS_ONLY =
  "Import `@netnet/shared` (or one of the entries in shared/package.json `exports`), never a file inside it.";

/** What a workspace may not import, by specifier (before resolution, so unresolvable names count too). */
function restrictedSpecifiers(workspace) {
  const groups = [{ regex: '^@netnet/shared/src(/.*)?$', message: SHARED_EXPORTS_ONLY }];
  groups.push({ regex: '^react-router(-dom)?(/.*)?$', message: ONE_ROUTER });
  const forbidden = forbiddenWorkspaces(workspace);
  if (forbidden.length > 0) {
    groups.push(...forbidden.map((app) => ({ regex: byName(app), message: whyForbidden(workspace) })));
  }
  // Playwright compiles a spec's static imports to CommonJS and caches them: an ES-module package
  // imported so is then found without exports by every ES import of it in that run.
  if (workspace === 'e2e') groups.push({ regex: byName('rollout'), message: ROLLOUT_IN_SPECS });
  // The page render reads Accept-Encoding as the servers do: that one entry of the kit is pure.
  if (workspace === 'shell') return [...groups.filter((group) => group.regex !== byName(SERVER_KIT)), { regex: '^(@netnet/server-kit|server-kit)(?!/encoding$)(/.*)?$', message: whyForbidden('shell') }];
  if (workspace === SHELL_SERVER) {
    return [
      ...groups.filter((group) => group.regex !== byName('control-plane')),
      { regex: `^(@netnet/control-plane|control-plane)(?!/(instance|testing)$)(/.*)?$`, message: ONLY_INSTANCE_ENTRY },
    ];
  }
  return groups;
}

// What every Node server stands on (Fastify with the site's limits, config, logger): for the
// servers only, never in a browser's bundle.
const SERVER_KIT = 'server-kit';
// The render sandbox (bubblewrap launcher, framed channel, pool, publish check): used by the shell's
// page server and the control plane's publish check, by name.
const RENDER_SANDBOX = 'render-sandbox';
const SERVERS = ['shell/server', 'catalogue', 'control-plane'];
// The shell's server (shell/server/) is the one part of the shell that runs on Node: it reads the
// store and collects release health through the control plane's one entry for instances.
const SHELL_SERVER = 'shell/server';
const INSTANCE_ENTRY = '@netnet/control-plane/instance';
const ONLY_INSTANCE_ENTRY = `The shell's server reaches the control plane through \`${INSTANCE_ENTRY}\` only (its tests through \`/testing\` too).`;

/** The workspaces that a workspace must never import (dependency direction, docs/architecture.md). */
function forbiddenWorkspaces(workspace) {
  const forbidden = ownRules(workspace);
  return SERVERS.includes(workspace) ? forbidden.filter((app) => app !== SERVER_KIT) : forbidden;
}

function ownRules(workspace) {
  if (workspace === SERVER_KIT) return [...apps.filter((app) => app !== SERVER_KIT), 'shared', 'rollout'];
  if (workspace === SHELL_SERVER) return apps.filter((app) => app !== 'shell' && app !== 'control-plane');
  if (workspace === 'shared') return [...apps, 'rollout'];
  // The rollout rule is pure: it imports no app and not `shared` either (the singleton the remotes
  // ship), so the control plane runs it without any browser code.
  if (workspace === 'rollout') return [...apps, 'shared'];
  // A remote is shown the release the shell chose; which one, and why, is no business of its code.
  if (remotes.includes(workspace)) return [...apps.filter((app) => app !== workspace), 'rollout'];
  // The shell loads remotes at run time through Module Federation, never by a static import; it
  // renders releases' server code through the render sandbox.
  if (workspace === 'shell') return apps.filter((app) => app !== 'shell' && app !== RENDER_SANDBOX);
  // The catalogue is a service of its own: it serves the apps, it does not import them.
  if (workspace === 'catalogue') return apps.filter((app) => app !== 'catalogue');
  // The release console talks to the control plane over HTTP only; it imports `shared` alone.
  if (workspace === 'console') return [...apps.filter((app) => app !== 'console'), 'rollout'];
  // The control plane decides which release is served; it reads builds from disk, never imports an app.
  if (workspace === 'control-plane') return apps.filter((app) => app !== 'control-plane' && app !== RENDER_SANDBOX);
  // Where releases' server code runs: it knows the contract and the rollout's types, no app.
  if (workspace === RENDER_SANDBOX) return apps.filter((app) => app !== RENDER_SANDBOX);
  return [];
}

function whyForbidden(workspace) {
  if (workspace === 'shared') return '`shared` is the contract every app imports; it imports no app.';
  if (workspace === 'rollout') return 'The rollout rule is a library of pure code; it imports no other workspace.';
  if (workspace === SERVER_KIT) return 'The server kit is what the servers stand on; it imports no other workspace.';
  if (workspace === 'shell') return 'The shell loads remotes at run time (Module Federation), never by import.';
  if (workspace === SHELL_SERVER) return "The shell's server serves the remotes' builds; it imports no app but the shell.";
  if (workspace === 'catalogue') return 'The catalogue is a service of its own; it imports no app.';
  if (workspace === 'control-plane') return 'The control plane is a service of its own; it imports no app.';
  if (workspace === RENDER_SANDBOX) return 'The render sandbox runs releases for the servers; it imports no app.';
  if (workspace === 'console') return 'The release console reaches the control plane over HTTP; it imports `shared` only.';
  return 'Remotes never import each other, the shell or the rollout rule: share through `@netnet/shared`.';
}

/**
 * The same rules on resolved files, so no spelling escapes them (`../../remote-browse/src/x`, a
 * symlinked package name, an alias): each zone is a workspace and the folders it must not reach.
 */
function restrictedZones(workspace) {
  const zones = [];
  const forbidden = forbiddenWorkspaces(workspace);
  if (forbidden.length > 0) {
    zones.push({ target: `./${workspace}`, from: forbidden.map((app) => `./${app}`), message: ` ${whyForbidden(workspace)}` });
  }
  if (workspace === 'shell') {
    const zone = zones.find((candidate) => candidate.from.includes?.(`./${SERVER_KIT}`));
    if (zone) {
      zone.from = zone.from.filter((from) => from !== `./${SERVER_KIT}`);
      zones.push({ target: './shell', from: `./${SERVER_KIT}`, except: ['./src/encoding.ts'], message: zone.message });
    }
  }
  if (workspace === SHELL_SERVER) {
    zones.push({ target: `./${workspace}`, from: './control-plane', except: ['./src/instance.ts', './src/testing.ts'], message: ` ${ONLY_INSTANCE_ENTRY}` });
  }
  if (workspace !== 'shared') {
    zones.push({ target: `./${workspace}`, from: './shared/src', except: sharedEntries, message: ` ${SHARED_EXPORTS_ONLY}` });
  }
  if (workspace !== 'control-plane') {
    zones.push({ target: `./${workspace}`, from: './control-plane/src', except: controlPlaneEntries, message: ` ${CONTROL_PLANE_EXPORTS_ONLY}` });
  }
  return zones;
}

// Strings turned into code or markup: an XSS sink or an eval, whatever the source of the string.
const rawHtmlSinks = [
  { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'No raw HTML: render text and elements.' },
  { selector: "Property[key.name='dangerouslySetInnerHTML']", message: 'No raw HTML: render text and elements.' },
  {
    selector: 'AssignmentExpression > MemberExpression.left[property.name=/^(inner|outer)HTML$/]',
    message: 'No raw HTML: set textContent or build elements.',
  },
  {
    selector: 'AssignmentExpression > MemberExpression.left[property.value=/^(inner|outer)HTML$/]',
    message: 'No raw HTML: set textContent or build elements.',
  },
  { selector: "Property[key.name=/^(inner|outer)HTML$/]", message: 'No raw HTML: set textContent or build elements.' },
  {
    selector: "CallExpression[callee.property.name=/^(insertAdjacentHTML|createContextualFragment)$/]",
    message: 'No raw HTML: build elements.',
  },
  { selector: "CallExpression[callee.object.name='document'][callee.property.name=/^write(ln)?$/]", message: 'No document.write.' },
];

// Dynamic import() of the router is as much a second router as a static one.
const dynamicImportOfRouter = {
  selector: 'ImportExpression[source.value=/^react-router/]',
  message: ONE_ROUTER,
};

const SOURCE = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';
const TYPESCRIPT = '**/*.{ts,tsx,mts,cts}';
const TESTS = ['**/*.test.{ts,tsx}', '**/test/**', '**/testing/**', 'e2e/**', 'scripts/jest/**'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      'deploy/',
      // npm run start:cluster's run-time files: nginx's prefix and each process's working folder of releases.
      '.cluster/',
      '**/coverage/',
      '**/test-results/',
      '**/playwright-report/',
      '**/bench-results/',
      'e2e/bench/results/',
      // Planted violations the rule tests lint on purpose.
      'scripts/lint/fixtures/',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: [SOURCE],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: join(root, 'tsconfig.json'), alwaysTryTypes: true }),
      ],
    },
    rules: {
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-script-url': 'error',
      'no-restricted-syntax': ['error', ...rawHtmlSinks],
      'import-x/no-unresolved': ['error', { commonjs: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/no-useless-path-segments': 'error',
      // Cycles inside an app; other workspaces are reached only through `shared`, which imports none.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  // Every .js file here is CommonJS (no package sets "type": "module"): configs read by webpack,
  // Jest and Babel, the site table, the webpack plugins.
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: [TYPESCRIPT],
    // A .cjs file has no ES module types to import; require() with a cast is how TS reads it.
    rules: { '@typescript-eslint/no-require-imports': ['error', { allow: ['\\.cjs$'] }] },
  },
  // Node code: the catalogue service, the control plane, the site's table and start programs, the scripts, the e2e tests and their tooling.
  {
    files: ['scripts/**', 'site/**', 'server-kit/**', 'render-sandbox/**', 'shell/server/**', 'catalogue/**', 'control-plane/**', 'e2e/**', '*.{js,mjs,cjs,ts}', '*/*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  // A runtime plugin webpack compiles into every remote's server build: it sets webpack's own
  // public path variable.
  {
    files: ['scripts/webpack/serverPublicPath.mjs'],
    languageOptions: { globals: { __webpack_public_path__: 'writable' } },
  },
  // Browser code: the apps and the contract; e2e code also runs functions inside the page.
  {
    files: ['shared/src/**', 'shell/src/**', 'remote-*/src/**', 'console/src/**', 'e2e/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: TESTS,
    languageOptions: { globals: { ...globals.jest, ...globals.node } },
    rules: {
      // Tests feed hostile input on purpose (`javascript:` links must be refused).
      'no-script-url': 'off',
      // Response bodies read as JSON in tests are checked by assertions, not by types.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.{tsx,jsx}', 'shared/src/**', 'shell/src/**', 'remote-*/src/**', 'console/src/**'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['**/*.{tsx,jsx}', 'shared/src/**', 'shell/src/**', 'remote-*/src/**', 'console/src/**'],
    rules: {
      'react-hooks/exhaustive-deps': 'error',
      // Netnet is not built with React Compiler: the rules that only say whether the compiler can
      // optimise a component have nothing to guard. The rules of React themselves stay on.
      'react-hooks/preserve-manual-memoization': 'off',
      'react-hooks/incompatible-library': 'off',
      'react-hooks/unsupported-syntax': 'off',
      'react-hooks/config': 'off',
      'react-hooks/gating': 'off',
      // Effects here sync with the DOM (focus after a removal) and with stores outside React
      // (IndexedDB, the catalogue cache); setting state from them is what they are for.
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    // The one exception: RemotePage renders a React.lazy page that it takes from a module-level
    // cache (one per page, replaced only after a failure, since lazy keeps a failure forever). The
    // rule cannot tell that lookup from making a component on each render.
    files: ['shell/src/federation/RemotePage.tsx'],
    rules: { 'react-hooks/static-components': 'off' },
  },
  {
    files: ['**/*.{tsx,jsx}'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // Opening Search (with no query yet) puts the caret in its only field, a tested product rule
    // (docs/product.md): the member came to type, and after a client-side navigation focus has to
    // be placed somewhere. Everywhere else autofocus stays banned.
    files: ['remote-search/src/pages/Search.tsx', 'remote-search/src/search/SearchForm.tsx'],
    rules: { 'jsx-a11y/no-autofocus': 'off' },
  },
  // The dependency rules, one block per workspace (a rule's options replace, not merge, across blocks).
  ...[...workspaces, SHELL_SERVER, '.'].map((workspace) => ({
    files: workspace === '.' ? ['*.{js,mjs,cjs,ts}', 'scripts/**'] : [`${workspace}/**`],
    rules: {
      'no-restricted-imports': ['error', { patterns: restrictedSpecifiers(workspace) }],
      'no-restricted-syntax': ['error', ...rawHtmlSinks, dynamicImportOfRouter],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: restrictedZones(workspace) }],
      // A path into another package (`../../shell/src/x`) hides a dependency from package.json.
      'import-x/no-relative-packages': workspace === '.' || workspace === 'e2e' ? 'off' : 'error',
    },
  })),
);
