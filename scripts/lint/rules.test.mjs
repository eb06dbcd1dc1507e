// The guard tested: each planted violation of the dependency rules or of the raw-HTML ban must be
// reported by the repository's own eslint.config.mjs, under the rule expected, and each allowed
// import must pass. Run by `npm run lint`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// `ignore: false` so the planted cycle under scripts/lint/fixtures (ignored by `npm run lint`) is linted.
const eslint = new ESLint({ cwd: root, ignore: false });

/** The rule ids reported for `code` as if it were the file at `path` (relative to the root). */
async function rulesFiredBy(path, code) {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return [...new Set(result.messages.map((message) => message.ruleId ?? `fatal: ${message.message}`))].sort();
}

async function expectFired(path, code, expected) {
  const fired = await rulesFiredBy(path, code);
  for (const rule of expected) assert.ok(fired.includes(rule), `${path}: expected ${rule}, got ${JSON.stringify(fired)}\n${code}`);
}

async function expectClean(path, code) {
  assert.deepEqual(await rulesFiredBy(path, code), [], `${path} should pass:\n${code}`);
}

// A module inside shared that its package.json `exports` does not name (picked, not hard-coded, so a
// rename in shared does not break this test).
const sharedInternal = readdirSync(join(root, 'shared', 'src'))
  .filter((file) => /^[a-z]\w*\.ts$/.test(file) && file !== 'index.ts' && !file.endsWith('.d.ts'))
  .map((file) => file.replace(/\.ts$/, ''))[0];

// Every app has src/bootstrap.tsx (its webpack entry), so the planted imports always resolve.
const REMOTE = 'remote-title/src/planted.tsx';
const CONTROL_PLANE = 'control-plane/src/planted.ts';

test('a remote importing another remote fails, however the import is spelled', async () => {
  await expectFired(REMOTE, "import '../../remote-browse/src/bootstrap';\n", [
    'import-x/no-restricted-paths',
    'import-x/no-relative-packages',
  ]);
  await expectFired(REMOTE, "import 'remote-browse/src/bootstrap';\n", ['no-restricted-imports', 'import-x/no-restricted-paths']);
  await expectFired(REMOTE, "import * as browse from '@netnet/remote-browse';\nexport { browse };\n", ['no-restricted-imports']);
  await expectFired(REMOTE, "export { default } from 'remote-search/src/bootstrap';\n", ['no-restricted-imports']);
  await expectFired(REMOTE, "export const load = () => import('../../remote-browse/src/bootstrap');\n", [
    'import-x/no-restricted-paths',
  ]);
  // Nor the shell: remotes share through @netnet/shared only.
  await expectFired(REMOTE, "import '../../shell/src/bootstrap';\n", ['import-x/no-restricted-paths']);
});

test('the shell importing a remote fails: remotes are loaded at run time', async () => {
  await expectFired('shell/src/planted.ts', "import 'remote-title/src/bootstrap';\n", [
    'no-restricted-imports',
    'import-x/no-restricted-paths',
  ]);
});

test('shared importing an app fails', async () => {
  for (const app of ['shell', 'remote-auth', 'remote-browse', 'remote-title', 'remote-search']) {
    await expectFired('shared/src/planted.ts', `import '../../${app}/src/bootstrap';\n`, ['import-x/no-restricted-paths']);
    await expectFired('shared/src/planted.ts', `import '${app}/src/bootstrap';\n`, ['no-restricted-imports']);
  }
  await expectFired('shared/src/planted.ts', "import '../../catalogue/src/main';\n", ['import-x/no-restricted-paths']);
  await expectFired('shared/src/planted.ts', "import '@netnet/catalogue';\n", ['no-restricted-imports']);
  await expectFired('shared/src/planted.ts', "import '../../e2e/playwright.config';\n", ['import-x/no-restricted-paths']);
});

test('the rollout rule imports no other workspace, and no remote imports it', async () => {
  await expectFired('rollout/src/planted.ts', "import '../../shell/src/bootstrap';\n", ['import-x/no-restricted-paths']);
  await expectFired('rollout/src/planted.ts', "import '@netnet/shared';\n", ['no-restricted-imports']);
  await expectFired(REMOTE, "import { bucketOf } from '@netnet/rollout';\nexport { bucketOf };\n", ['no-restricted-imports']);
  // The shell and the control plane use it.
  await expectClean('shell/src/planted.ts', "import { chooseRelease } from '@netnet/rollout';\nexport { chooseRelease };\n");
  await expectClean(CONTROL_PLANE, "import { isVersion } from '@netnet/rollout';\nexport { isVersion };\n");
  // A spec reaches it only as an ES module (Playwright would compile a static import to CommonJS).
  await expectFired('e2e/specs/planted.spec.ts', "import { bucketOf } from '@netnet/rollout';\nexport { bucketOf };\n", ['no-restricted-imports']);
});

test("the server kit is for the servers only, and the shell's server reaches the control plane through its instance entry", async () => {
  const kit = "import { createLogger } from '@netnet/server-kit';\nexport { createLogger };\n";
  for (const server of ['shell/server/planted.ts', 'catalogue/src/planted.ts', 'control-plane/src/planted.ts']) await expectClean(server, kit);
  // Browser code never bundles it.
  await expectFired('shell/src/planted.ts', kit, ['no-restricted-imports']);
  await expectFired(REMOTE, kit, ['no-restricted-imports']);
  // It stands on nothing of ours.
  await expectFired('server-kit/src/planted.ts', "import '@netnet/shared';\n", ['no-restricted-imports']);
  await expectFired('server-kit/src/planted.ts', "import '../../control-plane/bin/rollout.ts';\n", ['import-x/no-restricted-paths']);
  await expectClean('shell/server/planted.ts', "import { watchMap } from '@netnet/control-plane/instance';\nexport { watchMap };\n");
  await expectFired('shell/server/planted.ts', "import '../../control-plane/bin/rollout.ts';\n", ['import-x/no-restricted-paths']);
  await expectFired('shell/server/planted.ts', "import '@netnet/control-plane/bin/rollout.ts';\n", ['no-restricted-imports']);
  // The page render (browser code too) reaches no control plane at all.
  await expectFired('shell/src/planted.ts', "import '@netnet/control-plane/instance';\n", ['no-restricted-imports']);
});

test('the control plane importing an app fails: it reads builds from disk, never imports one', async () => {
  for (const app of ['shell', 'remote-title']) {
    await expectFired(CONTROL_PLANE, `import '../../${app}/src/bootstrap';\n`, ['import-x/no-restricted-paths', 'import-x/no-relative-packages']);
    await expectFired(CONTROL_PLANE, `import '${app}/src/bootstrap';\n`, ['no-restricted-imports']);
  }
  await expectFired(CONTROL_PLANE, "import '@netnet/catalogue';\n", ['no-restricted-imports']);
  // Its own modules, named by their .ts file as tsx runs them, pass.
  await expectClean(CONTROL_PLANE, "import { compareVersions } from './names.ts';\nexport { compareVersions };\n");
});

test('a file inside the control plane fails from outside it; its package entries pass', async () => {
  const deep = '../control-plane/src/store/database.ts';
  await expectFired('scripts/planted.mjs', `import { openDatabase } from '${deep}';\nexport { openDatabase };\n`, ['import-x/no-restricted-paths']);
  await expectFired('e2e/bench/planted.mjs', `import { openDatabase } from '../${deep}';\nexport { openDatabase };\n`, ['import-x/no-restricted-paths']);
  await expectClean('scripts/planted.mjs', "import { openDatabase } from '@netnet/control-plane/store';\nexport { openDatabase };\n");
});

test('a deep import into @netnet/shared fails; its exports pass', async () => {
  await expectFired('shell/src/planted.ts', `import * as deep from '@netnet/shared/src/${sharedInternal}';\nexport { deep };\n`, [
    'no-restricted-imports',
  ]);
  await expectFired('remote-title/src/planted.ts', `import * as deep from '../../shared/src/${sharedInternal}';\nexport { deep };\n`, [
    'import-x/no-restricted-paths',
    'import-x/no-relative-packages',
  ]);
  await expectClean('remote-title/src/planted.ts', "import * as shared from '@netnet/shared';\nexport { shared };\n");
  await expectClean('remote-title/src/planted.test.tsx', "import * as kit from '@netnet/shared/testing';\nexport { kit };\n");
  await expectClean('shell/src/planted.ts', "import * as runtime from '@netnet/shared/federation-runtime';\nexport { runtime };\n");
});

test('React Router fails everywhere, shared included: the router is shared\'s own', async () => {
  await expectFired(REMOTE, "import { Link } from 'react-router';\nexport { Link };\n", ['no-restricted-imports']);
  await expectFired('shell/src/planted.ts', "import { Link } from 'react-router-dom';\nexport { Link };\n", ['no-restricted-imports']);
  await expectFired('shell/src/planted.ts', "export const load = () => import('react-router');\n", ['no-restricted-syntax']);
  await expectFired('e2e/support/planted.ts', "import { Link } from 'react-router';\nexport { Link };\n", ['no-restricted-imports']);
  await expectFired('shared/src/planted.ts', "import { Link } from 'react-router';\nexport { Link };\n", ['no-restricted-imports']);
});

test('an import cycle fails', async () => {
  await expectFired('scripts/lint/fixtures/cycle/a.ts', "import { b } from './b';\n\nexport const a = () => b();\n", [
    'import-x/no-cycle',
  ]);
});

test('raw HTML and string evaluation fail everywhere', async () => {
  const planted = {
    'export const Page = ({ html }: { html: string }) => <div dangerouslySetInnerHTML={{ __html: html }} />;\n': 'no-restricted-syntax',
    "import { createElement } from 'react';\nexport const page = (html: string) => createElement('div', { dangerouslySetInnerHTML: { __html: html } });\n":
      'no-restricted-syntax',
    'export const show = (el: HTMLElement, html: string) => { el.innerHTML = html; };\n': 'no-restricted-syntax',
    "export const show = (el: HTMLElement, html: string) => { el['innerHTML'] += html; };\n": 'no-restricted-syntax',
    'export const show = (el: HTMLElement, html: string) => { el.outerHTML = html; };\n': 'no-restricted-syntax',
    "export const show = (el: HTMLElement, html: string) => el.insertAdjacentHTML('beforeend', html);\n": 'no-restricted-syntax',
    'export const show = (el: HTMLElement, html: string) => Object.assign(el, { innerHTML: html });\n': 'no-restricted-syntax',
    'export const show = (html: string) => document.write(html);\n': 'no-restricted-syntax',
    'export const run = (code: string) => eval(code);\n': 'no-eval',
    "export const run = (code: string) => new Function('x', code);\n": 'no-new-func',
    "export const run = () => setTimeout('document.title = name', 0);\n": 'no-implied-eval',
  };
  for (const [code, rule] of Object.entries(planted)) {
    for (const path of ['remote-title/src/planted.tsx', 'shared/src/planted.tsx', 'shell/src/planted.tsx']) {
      await expectFired(path, code, [rule]);
    }
  }
  await expectClean('remote-title/src/planted.tsx', 'export const show = (el: HTMLElement, text: string) => { el.textContent = text; };\n');
});

test('React hooks and accessibility rules are on', async () => {
  await expectFired(
    'remote-title/src/planted.tsx',
    "import { useEffect } from 'react';\nexport function Title({ id }: { id: number }) {\n  useEffect(() => console.log(id), []);\n  return null;\n}\n",
    ['react-hooks/exhaustive-deps'],
  );
  await expectFired('remote-title/src/planted.tsx', 'export const Poster = () => <img src="/p.jpg" />;\n', ['jsx-a11y/alt-text']);
});
