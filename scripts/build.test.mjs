// `npm start` rebuilds only stale apps: a change to any input, shared toolchain files included,
// must make the apps that read it stale. Run with `node --test scripts/`.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { isStale } from './build.mjs';

const BUILT = new Date('2026-01-02T00:00:00Z');
const BEFORE = new Date('2026-01-01T00:00:00Z');
const AFTER = new Date('2026-01-03T00:00:00Z');

// A repository in miniature: every input of the shell and the catalogue, all older than their builds.
const files = [
  'package-lock.json',
  'tsconfig.json',
  '.browserslistrc',
  'babel.config.js',
  'webpack.shared.js',
  'site/table.cjs',
  'scripts/webpack/somePlugin.js',
  'shared/package.json',
  'shared/src/index.ts',
  'shared/src/ids.ts',
  'shared/src/testing/index.ts',
  'shell/package.json',
  'shell/webpack.config.js',
  'shell/src/App.tsx',
  'shell/src/App.test.tsx',
  'shell/dist/.built',
  'catalogue/package.json',
  'catalogue/webpack.config.js',
  'catalogue/src/server.ts',
  'catalogue/dist/.built',
  'server-kit/src/logger.ts',
];

let base;

function write(file, time) {
  const path = join(base, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, file);
  utimesSync(path, time, time);
}

const touch = (file) => write(file, AFTER);

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'netnet-build-'));
  for (const file of files) write(file, file.endsWith('.built') ? BUILT : BEFORE);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

test('an app is up to date when nothing changed since its build', () => {
  assert.equal(isStale('shell', base), false);
  assert.equal(isStale('catalogue', base), false);
});

test('an app without a build is stale', () => {
  rmSync(join(base, 'shell/dist/.built'));
  assert.equal(isStale('shell', base), true);
});

for (const file of [
  'package-lock.json',
  'tsconfig.json',
  '.browserslistrc',
  'scripts/webpack/somePlugin.js',
  'webpack.shared.js',
  'babel.config.js',
  'site/table.cjs',
  'shared/src/index.ts',
  'shell/src/App.tsx',
]) {
  test(`a change to ${file} makes the shell stale`, () => {
    touch(file);
    assert.equal(isStale('shell', base), true);
  });
}

test('the lockfile and tsconfig.json are inputs of the catalogue too; the browser targets are not', () => {
  touch('.browserslistrc');
  touch('scripts/webpack/somePlugin.js');
  assert.equal(isStale('catalogue', base), false);
  touch('package-lock.json');
  assert.equal(isStale('catalogue', base), true);
  write('package-lock.json', BEFORE);
  touch('tsconfig.json');
  assert.equal(isStale('catalogue', base), true);
});

test('the catalogue reads the id rule from shared and its own webpack config, not the rest of shared', () => {
  touch('shared/src/index.ts');
  assert.equal(isStale('catalogue', base), false);
  touch('shared/src/ids.ts');
  assert.equal(isStale('catalogue', base), true);
  write('shared/src/ids.ts', BEFORE);
  touch('catalogue/webpack.config.js');
  assert.equal(isStale('catalogue', base), true);
});

test('the catalogue bundles the server kit: a change to it makes the catalogue stale', () => {
  touch('server-kit/src/logger.ts');
  assert.equal(isStale('catalogue', base), true);
});

test('tests and the test kit never make an app stale (they are not in any bundle)', () => {
  touch('shell/src/App.test.tsx');
  touch('shared/src/testing/index.ts');
  assert.equal(isStale('shell', base), false);
});
